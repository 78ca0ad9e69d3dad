/**
 * The suppression list in the database: table `suppression_changes`, one change a row (jsonb, the
 * port's SuppressionChange), folded in `seq` order by the port's SuppressionIndex, as the file
 * backend folds its lines.
 *
 * A reader reads only the rows after the last it saw (`seq > last`). That holds only if rows commit
 * in `seq` order, which a sequence alone does not promise (a transaction that took its number first
 * may commit last). So every writer takes the table's EXCLUSIVE lock before it takes a number and
 * keeps it until it commits: writers of the list follow one another, readers (plain SELECTs) are
 * never held up. Inside that lock a writer also reads what others wrote before it, so what
 * `suppress` answers (added, or already there) is exact even when two processes write one phone at once.
 * A company's list reads its own changes (the jsonb's `company`) and those of none; the store seen whole reads all.
 * Each change carries its own id (`change_id`, unique): a write run again after its connection was
 * lost finds its changes there (an earlier try committed) and answers from them instead of writing them twice.
 */
import { randomUUID } from 'node:crypto';
import {
  readSuppressionChange,
  SuppressionIndex,
  suppressionListOf,
  type SuppressionChange,
  type SuppressionEntry,
  type SuppressionInput,
  type SuppressionList,
  type SuppressResult,
  type UnsuppressOptions,
} from '../suppression.js';
import type { Db, Queryable } from './db.js';
import { readDb, serially, writeTx } from './write.js';

interface ChangeRow {
  seq: string;
  change: Record<string, unknown>;
  change_id: string | null;
}

export interface PgSuppression {
  list(): Promise<SuppressionList>;
  suppress(entries: readonly SuppressionInput[]): Promise<SuppressResult>;
  unsuppress(phones: readonly string[], options?: UnsuppressOptions): Promise<string[]>;
}

export function pgSuppression(db: Db, company?: number): PgSuppression {
  const s = db.s;
  const index = new SuppressionIndex();
  let last = 0;
  const serial = serially();

  const fold = (rows: readonly ChangeRow[]) => {
    for (const row of rows) {
      const change = readSuppressionChange(row.change);
      if (change) index.apply(change);
      last = Math.max(last, Number(row.seq));
    }
  };
  const ofCompany = company === undefined ? '' : ` AND (change->'company' IS NULL OR change->>'company' = '${Math.trunc(company)}')`;
  const newerSql = `SELECT seq, change, change_id::text AS change_id FROM ${s}.suppression_changes WHERE seq > $1${ofCompany} ORDER BY seq`;
  const newer = (q: Queryable, after: number) => q.query<ChangeRow>(newerSql, [after]);

  const refresh = () =>
    serial(async () => {
      const { rows } = await readDb(db, () => db.query<ChangeRow>(newerSql, [last]));
      fold(rows);
    });

  /**
   * Appends the changes `make` builds (given the store's clock) after whatever others wrote, under
   * the table's lock; then folds both in that order, calling `before` once the others' are folded.
   */
  const append = <T>(make: (now: string) => SuppressionChange[], before: () => T): Promise<{ changes: SuppressionChange[]; before: T }> =>
    serial(async () => {
      // The changes' ids, made once: every try of the write carries the same ones.
      let ids: string[] | undefined;
      const written = await writeTx(db, 'the suppression list', async (c) => {
        await c.query(`LOCK TABLE ${s}.suppression_changes IN EXCLUSIVE MODE`);
        const { rows } = await newer(c, last);
        const mine = new Set(ids);
        const found = rows.filter((r) => r.change_id !== null && mine.has(r.change_id));
        // An earlier try of this write committed before its connection was lost: its changes are the answer.
        if (found.length > 0) {
          const changes = found.map((r) => readSuppressionChange(r.change)).filter((change): change is SuppressionChange => change !== undefined);
          return { others: rows.filter((r) => !found.includes(r)), changes, top: found.reduce((m, r) => Math.max(m, Number(r.seq)), 0) };
        }
        const { rows: clock } = await c.query<{ now: Date }>('SELECT now() AS now');
        const changes = make((clock[0]?.now ?? new Date()).toISOString()).map((c) => (company === undefined ? c : { ...c, company }));
        ids ??= changes.map(() => randomUUID());
        const { rows: seqs } = await c.query<{ seq: string }>(
          `INSERT INTO ${s}.suppression_changes (change, change_id) SELECT x.value, ($2::uuid[])[x.n] FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(value, n) ORDER BY n RETURNING seq`,
          [JSON.stringify(changes), ids],
        );
        return { others: rows, changes, top: seqs.reduce((m, r) => Math.max(m, Number(r.seq)), 0) };
      });
      fold(written.others);
      const state = before();
      for (const change of written.changes) index.apply(change);
      last = Math.max(last, written.top);
      return { changes: written.changes, before: state };
    });

  const view: SuppressionList = suppressionListOf(index, refresh);

  return {
    async list() {
      await refresh();
      return view;
    },
    async suppress(entries) {
      const phones = entries.map((e) => e.phone);
      const { changes, before } = await append(
        (now) => entries.map((e) => ({ op: 'add', phone: e.phone, reason: e.reason, source: e.source, at: e.at ?? now })),
        () => new Map(phones.map((p) => [p, index.get(p)])),
      );
      const result: SuppressResult = { added: [], already: [] };
      for (const c of changes) {
        if (c.op !== 'add') continue;
        const entry: SuppressionEntry | undefined = index.get(c.phone);
        if (entry === undefined) continue;
        if (entry !== before.get(c.phone) && entry.at === c.at && entry.source === c.source) {
          if (!result.added.includes(entry)) result.added.push(entry);
        } else if (!result.already.includes(entry)) result.already.push(entry);
      }
      return result;
    },
    async unsuppress(phones, options = {}) {
      const { before: listed } = await append(
        (now) => phones.map((phone) => ({ op: 'remove', phone, ...(options.onlySource !== undefined && { only_source: options.onlySource }), at: options.at ?? now })),
        () => phones.filter((p) => index.get(p) !== undefined),
      );
      return [...new Set(listed.filter((p) => index.get(p) === undefined))];
    },
  };
}
