/**
 * The store-wide messaging-limit budget in the database: table `budget_holds`, one row per holder
 * (a process's run) with the places it took and has not used yet, and when they lapse.
 *
 * A take is one transaction under the table's EXCLUSIVE lock, so takes of every process follow one
 * another: it counts the ledger's distinct recipients messaged outside their window in the rolling
 * 24 hours and every unexpired hold, and grants what the limit leaves. A ledger entry that uses a
 * place lowers its holder's row in the ledger's own transaction (`ledger.ts`); that update waits for
 * a take under way and a take waits for it, so a take never sees the entry without the lowered hold
 * or the other way round. Places lapse as a job's lease does (the store's lease seconds, 30 by default,
 * on the database's clock) after the holder's last take, renewal or use, so the places of a process that
 * died come back when its lease would; those of a holder of this host whose process is gone, at once.
 *
 * What the holder may still promise (`held`) is the row as the last take read it, less the places used
 * since whose ledger write had not committed by then (the row drops by them once it does), so a take that
 * runs between a use and its write never gives a place back twice.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isProcessAlive } from '../process-alive.js';
import { inCompany, LedgerIndex, type BudgetHolder } from '../ledger.js';
import type { Db, Queryable } from './db.js';
import { writeTx } from './write.js';
import { companyRows } from './company-rows.js';
import { unavailable } from './errors.js';

const DAY_MS = 86_400_000;
/** How long places stay held without a take, a renewal or a use, by default (a job's lease's default). */
export const HOLD_SECONDS = 30;

/** The SQL interval a hold lasts. */
export function holdLapses(seconds: number = HOLD_SECONDS): string {
  return `make_interval(secs => ${Number(seconds)})`;
}

export class PgBudgetHolder implements BudgetHolder {
  /** The holder's row. */
  readonly id = randomUUID();
  private count = 0;
  /** Places used whose ledger write has not resolved yet: the row may still hold them. */
  private unresolved = 0;
  /** Places used so far, in all. */
  private uses = 0;
  /** The ledger's entries outside the window (and take-backs) since `loadedSince`, read up to `last`. */
  private readonly outside = new LedgerIndex();
  private last = 0;
  private loadedSince = Infinity;

  constructor(
    private readonly db: Db,
    /** The company whose limit it holds places of (undefined: the store seen whole, every company's together). */
    private readonly company?: number,
    /** How long its places last without a sign of life. */
    private readonly seconds: number = HOLD_SECONDS,
  ) {}

  get held(): number {
    return this.count;
  }

  /** A ledger entry used one place; `written` settles when its write (which lowers the row) has. */
  used(written: Promise<unknown>): void {
    this.count = Math.max(0, this.count - 1);
    this.unresolved += 1;
    this.uses += 1;
    const done = () => {
      this.unresolved -= 1;
    };
    written.then(done, done);
  }

  async renew(): Promise<void> {
    await writeTx(this.db, 'the messaging-limit budget', (c) =>
      c.query(`UPDATE ${this.db.s}.budget_holds SET expires_at = now() + ${holdLapses(this.seconds)} WHERE holder = $1`, [this.id]),
    );
  }

  async take(want: number, limit: number, now: number): Promise<number> {
    if (!(want > 0)) return 0;
    const s = this.db.s;
    const since = now - DAY_MS;
    const { granted, held, pending, usesAtRead } = await writeTx(this.db, 'the messaging-limit budget', async (c) => {
      await c.query(`LOCK TABLE ${s}.budget_holds IN EXCLUSIVE MODE`);
      await c.query(`DELETE FROM ${s}.budget_holds WHERE expires_at <= now()`);
      await deleteGoneHere(c, s);
      const ledger = await this.ledgerSince(c, since);
      const { rows } = await c.query<{ others: number; mine: number }>(
        `SELECT coalesce(sum(held) FILTER (WHERE holder <> $1), 0)::int AS others, coalesce(sum(held) FILTER (WHERE holder = $1), 0)::int AS mine
           FROM ${s}.budget_holds WHERE true${companyRows(this.company)}`,
        [this.id],
      );
      // What the row read just now does not show: the uses whose write had not resolved (it may commit only after this
      // take), and every use made from now on. A write resolved after this read lowers the row after it, never before.
      const read = { pending: this.unresolved, usesAtRead: this.uses };
      const others = rows[0]?.others ?? 0;
      const mine = rows[0]?.mine ?? 0;
      const grant = Math.max(0, Math.min(Math.floor(want), limit - ledger - others - mine));
      await c.query(
        `INSERT INTO ${s}.budget_holds (holder, held, expires_at, company_id, host, pid) VALUES ($1, $2, now() + ${holdLapses(this.seconds)}, $3, $4, $5)
         ON CONFLICT (holder) DO UPDATE SET held = EXCLUDED.held, expires_at = EXCLUDED.expires_at`,
        [this.id, mine + grant, this.company ?? null, hostname(), process.pid],
      );
      return { granted: grant, held: mine + grant, ...read };
    });
    // What the row says, less the uses it does not show: places that lapsed while this holder paused are no longer its own.
    this.count = Math.max(0, held - pending - (this.uses - usesAtRead));
    return granted;
  }

  async release(): Promise<void> {
    await writeTx(this.db, 'the messaging-limit budget', (c) => c.query(`DELETE FROM ${this.db.s}.budget_holds WHERE holder = $1`, [this.id]));
    this.count = 0;
  }

  /**
   * The ledger's distinct recipients messaged outside their window since `since` (epoch ms). Only the
   * rows written since the last take are read (the ledger's writers take turns, so rows commit in
   * `seq` order: none is skipped); the first take reads the rolling 24 hours. One statement, so the
   * rows and the last `seq` are of one snapshot. A take-back carries its entry's time.
   */
  private async ledgerSince(c: Queryable, since: number): Promise<number> {
    if (since < this.loadedSince) {
      this.outside.clear();
      this.last = 0;
      this.loadedSince = since;
    }
    const { rows } = await c.query<{ seq: string; op: 'add' | 'take_back'; id: string | null; phone: string; at: Date; job: string; outside_window: boolean; company_id: string | null }>(
      `SELECT seq, op, id, phone, at, job, outside_window, company_id FROM ${this.db.s}.ledger_ops
        WHERE seq > $1 AND ((op = 'take_back' OR outside_window) AND at > $2${companyRows(this.company)} OR seq = (SELECT max(seq) FROM ${this.db.s}.ledger_ops))
        ORDER BY ${this.last === 0 ? 'at, seq' : 'seq'}`,
      [this.last, new Date(this.loadedSince).toISOString()],
    );
    for (const row of rows) {
      this.last = Math.max(this.last, Number(row.seq));
      // The newest row is read only to move `last` on: another company's counts for none of this one's.
      if (!inCompany(row.company_id === null ? {} : { company: Number(row.company_id) }, this.company)) continue;
      const entry = { phone: row.phone, at: row.at.getTime(), job: row.job, outsideWindow: row.outside_window, ...(row.id !== null && { id: row.id }) };
      if (row.op === 'add') this.outside.add(entry);
      else this.outside.takeBack(entry);
    }
    return this.outside.uniqueOutsideWindowSince(since);
  }
}

export function pgBudgetHolder(db: Db, company?: number, seconds?: number): Promise<BudgetHolder> {
  return Promise.resolve(new PgBudgetHolder(db, company, seconds));
}

/** Deletes the holds of this host whose process is gone (killed): their places come back at once. */
async function deleteGoneHere(c: Queryable, s: string): Promise<void> {
  const { rows } = await c.query<{ holder: string; pid: number }>(`SELECT holder, pid FROM ${s}.budget_holds WHERE host = $1 AND pid IS NOT NULL`, [hostname()]);
  const gone = rows.filter((r) => r.pid !== process.pid && !isProcessAlive(r.pid)).map((r) => r.holder);
  if (gone.length > 0) await c.query(`DELETE FROM ${s}.budget_holds WHERE holder = ANY($1::text[])`, [gone]);
}

/** The places every holder of the company (undefined: of the store) holds now and has not used (lapsed holds left out), for status. */
export async function pgPlacesHeld(db: Db, company?: number): Promise<number> {
  const { rows } = await db.query<{ held: number }>(`SELECT coalesce(sum(held), 0)::int AS held FROM ${db.s}.budget_holds WHERE expires_at > now()${companyRows(company)}`).catch((err: unknown) => {
    throw unavailable(err, db.url);
  });
  return rows[0]?.held ?? 0;
}
