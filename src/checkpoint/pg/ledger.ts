/**
 * The send ledger in the database: table `ledger_ops`, one entry or take-back a row, folded in
 * `seq` order by the port's LedgerIndex (which needs no order, but a reader reads only the rows after
 * the last it saw: see `suppression.ts` for why every writer takes the table's EXCLUSIVE lock before
 * it numbers its rows). `record` and `takeBack` count at once and resolve once their row is
 * committed; the calls made while a transaction is being written share the next one (a run writes up
 * to a thousand first messages a second). An entry outside the window recorded `from` a holder of
 * the store-wide budget (`budget.ts`) lowers that holder's row in the same transaction. A company's
 * ledger reads its own rows (`company_id`) and those of none; the store seen whole reads all.
 * Each row carries its own id (`op_id`, unique): a transaction run again after its connection was
 * lost inserts only the rows not there yet, and lowers the holds for those alone.
 */
import { randomUUID } from 'node:crypto';
import { LedgerIndex, ledgerViewOf, type Ledger, type LedgerEntry } from '../ledger.js';
import type { Db, Queryable } from './db.js';
import { holdLapses, PgBudgetHolder } from './budget.js';
import { batched, readDb, serially, writeTx } from './write.js';
import { companyRows } from './company-rows.js';

export { pgBudgetHolder } from './budget.js';

export interface Op {
  /** The row's own id: written once, whatever number of times the write is tried. */
  id: string;
  op: 'add' | 'take_back';
  entry: LedgerEntry;
  /** The budget holder whose place the entry uses. */
  holder?: string;
}

interface OpRow {
  seq: string;
  op: 'add' | 'take_back';
  id: string | null;
  phone: string;
  at: Date;
  job: string;
  outside_window: boolean;
  channel_id: number | null;
  message: string | null;
  company_id: string | null;
  state: string | null;
}

export async function openPgLedger(db: Db, company?: number, holdSeconds?: number): Promise<Ledger> {
  const s = db.s;
  const index = new LedgerIndex();
  let last = 0;
  const serial = serially();

  const refresh = () =>
    serial(async () => {
      const { rows } = await readDb(db, () =>
        // The first read in time order: the index places each time at the end of its list (folding needs no order).
        db.query<OpRow>(
          `SELECT seq, op, id, phone, at, job, outside_window, channel_id, message, company_id, state FROM ${s}.ledger_ops WHERE seq > $1${companyRows(company)} ORDER BY ${last === 0 ? 'at, seq' : 'seq'}`,
          [last],
        ),
      );
      for (const row of rows) {
        const entry: LedgerEntry = {
          phone: row.phone,
          at: row.at.getTime(),
          job: row.job,
          outsideWindow: row.outside_window,
          ...(row.id !== null && { id: row.id }),
          ...(row.channel_id !== null && { channelId: row.channel_id }),
          ...(row.message !== null && { message: row.message }),
          ...(row.state !== null && { state: row.state }),
          ...(row.company_id !== null && { company: Number(row.company_id) }),
        };
        if (row.op === 'add') index.add(entry);
        else index.takeBack(entry);
        last = Math.max(last, Number(row.seq));
      }
    });

  const writes = batched<Op, void>(async (ops) => {
    await writeLedgerOps(db, ops, holdSeconds);
    return ops.map(() => undefined);
  });

  await refresh();
  return {
    record(given, from) {
      const entry = company === undefined ? given : { ...given, company };
      index.add(entry);
      const holder = entry.outsideWindow && from instanceof PgBudgetHolder ? from : undefined;
      const written = writes.add({ id: randomUUID(), op: 'add', entry, ...(holder && { holder: holder.id }) });
      holder?.used(written);
      return written;
    },
    takeBack(given) {
      const entry = company === undefined ? given : { ...given, company };
      index.takeBack(entry);
      return writes.add({ id: randomUUID(), op: 'take_back', entry });
    },
    refresh,
    ...ledgerViewOf(index),
  };
}

/** One transaction: the ops not written yet (by their ids), and the holds their entries used. Safe to run again. */
export async function writeLedgerOps(db: Db, ops: readonly Op[], holdSeconds?: number): Promise<void> {
  await writeTx(db, 'the ledger', async (c) => {
    await c.query(`LOCK TABLE ${db.s}.ledger_ops IN EXCLUSIVE MODE`);
    const fresh = await insertOps(c, db.s, ops);
    await useHolds(
      c,
      db.s,
      ops.filter((o) => fresh.has(o.id)),
      holdSeconds,
    );
  });
}

/** Inserts the ops whose ids are not there yet; the ids it inserted. */
async function insertOps(c: Queryable, s: string, ops: readonly Op[]): Promise<Set<string>> {
  const { rows } = await c.query<{ op_id: string }>(
    `INSERT INTO ${s}.ledger_ops (op, id, phone, at, job, outside_window, channel_id, message, company_id, state, op_id)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::boolean[], $7::integer[], $8::text[], $9::bigint[], $10::text[], $11::uuid[])
     ON CONFLICT (op_id) DO NOTHING
     RETURNING op_id::text`,
    [
      ops.map((o) => o.op),
      ops.map((o) => o.entry.id ?? null),
      ops.map((o) => o.entry.phone),
      ops.map((o) => new Date(o.entry.at).toISOString()),
      ops.map((o) => o.entry.job),
      ops.map((o) => o.entry.outsideWindow),
      ops.map((o) => (o.op === 'add' ? (o.entry.channelId ?? null) : null)),
      ops.map((o) => (o.op === 'add' ? (o.entry.message ?? null) : null)),
      ops.map((o) => o.entry.company ?? null),
      ops.map((o) => (o.op === 'add' ? (o.entry.state ?? null) : null)),
      ops.map((o) => o.id),
    ],
  );
  return new Set(rows.map((r) => r.op_id));
}

/** Lowers each holder's row by the places its entries used (never below 0), and renews it. */
async function useHolds(c: Queryable, s: string, ops: readonly Op[], holdSeconds?: number): Promise<void> {
  const used = new Map<string, number>();
  for (const o of ops) if (o.holder !== undefined) used.set(o.holder, (used.get(o.holder) ?? 0) + 1);
  if (used.size === 0) return;
  const holders = [...used.keys()].sort();
  await c.query(
    `UPDATE ${s}.budget_holds h SET held = GREATEST(h.held - u.n, 0), expires_at = now() + ${holdLapses(holdSeconds)}
     FROM unnest($1::text[], $2::int[]) AS u(holder, n) WHERE h.holder = u.holder`,
    [holders, holders.map((h) => used.get(h) ?? 0)],
  );
}
