/**
 * A job's journal appends, fenced and group-committed. `append` queues; one statement at a time is
 * in flight, and it writes every event queued meanwhile in one multi-row INSERT (as the file store
 * shares one fsync between the appends that wait for it). The statement is one transaction that
 * first reads the job's row FOR SHARE and inserts only while the lease's token is still ours: a
 * take-over (an UPDATE of that row) waits for it, and every later write sees the new token, so an
 * owner that lost the job writes nothing more. It is never left open between two round trips, so a
 * paused process holds no lock. When this process's own clock says the lease may have lapsed (a long
 * pause), the statement renews the lease instead of only reading it.
 *
 * Each row carries its own id (`rid`, unique): a statement run again after its connection was lost
 * (`db.ts`; its outcome unknown) inserts only the rows that are not there yet and counts those that
 * are, and it stays fenced: it writes, and counts as written, nothing once the token is another's.
 *
 * After a failed write every waiting and later append rejects with the same StoreWriteError: what
 * reached the database is unknown, and nothing that depends on it may go ahead.
 */
import { randomUUID } from 'node:crypto';
import { StoreWriteError } from '../errors.js';
import type { CheckpointEvent } from '../types.js';
import type { Db } from './db.js';
import { writeFailed } from './errors.js';
import { describeOwner, leaseHolder, type JobLease } from './lease.js';

/** Events one statement writes at most. */
const MAX_BATCH = 5_000;
/** Times a batch is written again when only part of it was found (an earlier try of it still committing on a lost connection). */
const PARTLY_THERE_TRIES = 3;

interface Waiter {
  event: CheckpointEvent;
  text: string;
  /** The row's own id: a retry finds it there instead of writing it twice. */
  rid: string;
  resolve: () => void;
  reject: (err: Error) => void;
}

export interface PgJournalWriter {
  /** Resolves once the event is committed and `onCommit` has been given it; appends made meanwhile share the next statement. */
  append(event: CheckpointEvent): Promise<void>;
  /** Waits for what is queued, then refuses further appends. */
  close(): Promise<void>;
  /** The error that stopped the journal, if any. */
  readonly broken: StoreWriteError | undefined;
}

/**
 * @param onCommit folds a committed batch (in order) before its appends resolve; `upto` is the seq of
 *   its last row.
 */
export function pgJournalWriter(db: Db, lease: JobLease, onCommit: (events: readonly CheckpointEvent[], upto: string) => void): PgJournalWriter {
  const job = lease.job;
  let queue: Waiter[] = [];
  let flushing: Promise<void> | undefined;
  let broken: StoreWriteError | undefined;
  let closed = false;

  async function write(batch: readonly Waiter[]): Promise<string> {
    const overdue = lease.overdue();
    const at = lease.clock();
    const rows = batch.map((w) => ({ phone: w.event.t === 'header' ? null : w.event.phone, text: w.text, rid: w.rid }));
    for (let tries = 1; ; tries += 1) {
      let written: Appended;
      try {
        written = await appendRows(db, lease, rows, overdue);
      } catch (err) {
        throw writeFailed(err, db.url, `the journal of job "${job}"`);
      }
      if (written.kind === 'written') {
        if (overdue) lease.renewed(at);
        return written.upto;
      }
      if (written.kind === 'lost') break;
      if (tries >= PARTLY_THERE_TRIES) throw writeFailed(new Error(`${written.found} of the ${rows.length} rows of a batch were found after it was written again`), db.url, `the journal of job "${job}"`);
    }
    lease.lost = true;
    throw await takenOver();
  }

  async function takenOver(): Promise<StoreWriteError> {
    const holder = await leaseHolder(db, job).catch(() => undefined);
    const by = holder ? `by ${describeOwner(holder)}` : 'by another run';
    return new StoreWriteError(
      `job "${job}" was taken over ${by} after this run's lease lapsed (a long pause or a lost connection), so this run writes nothing more to the store (${db.url.place})`,
      'let that run finish the job; `outreach status` shows where it stands',
    );
  }

  async function drain(): Promise<void> {
    while (queue.length > 0 && !broken) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      let upto: string;
      try {
        upto = await write(batch);
      } catch (err) {
        broken = err instanceof StoreWriteError ? err : writeFailed(err, db.url, `the journal of job "${job}"`);
        for (const w of [...batch, ...queue]) w.reject(broken);
        queue = [];
        break;
      }
      onCommit(
        batch.map((w) => w.event),
        upto,
      );
      for (const w of batch) w.resolve();
    }
    flushing = undefined;
  }

  return {
    get broken() {
      return broken;
    },
    append(event) {
      if (broken) return Promise.reject(broken);
      if (closed) return Promise.reject(new Error(`the journal of job "${job}" is closed`));
      let text: string;
      try {
        text = JSON.stringify(event);
      } catch (err) {
        return Promise.reject(err as Error);
      }
      return new Promise<void>((resolve, reject) => {
        queue.push({ event, text, rid: randomUUID(), resolve, reject });
        // Started on a microtask, so the appends of the current tick share the first statement too.
        flushing ??= Promise.resolve().then(drain);
      });
    },
    async close() {
      closed = true;
      while (flushing) await flushing;
    },
  };
}

/** What one statement of `appendRows` did: all the rows are there (`upto`: the seq of the last), the lease is another's, or only some were found. */
export type Appended = { kind: 'written'; upto: string } | { kind: 'lost' } | { kind: 'partly'; found: number };

/**
 * Appends the rows in one statement, fenced by the lease's token (read FOR SHARE, or renewed when
 * `renew`), each row once by its `rid`: the same rows given again (a retry whose first try may have
 * committed) are found, not written twice. The rows already there are looked up only when the
 * statement inserted none of them.
 */
export async function appendRows(db: Db, lease: JobLease, rows: ReadonlyArray<{ phone: string | null; text: string; rid: string }>, renew: boolean): Promise<Appended> {
  const fence = renew
    ? `UPDATE ${db.s}.jobs SET lease_expires_at = now() + make_interval(secs => $6) WHERE job = $1 AND lease_token = $2::bigint RETURNING lease_token`
    : `SELECT lease_token FROM ${db.s}.jobs WHERE job = $1 FOR SHARE`;
  const sql = `WITH lease AS MATERIALIZED (${fence}),
ours AS MATERIALIZED (SELECT EXISTS (SELECT 1 FROM lease WHERE lease_token = $2::bigint) AS ok),
ins AS (
  INSERT INTO ${db.s}.journal (job, phone, token, event, rid)
  SELECT $1, u.phone, $2::bigint, u.event, u.rid FROM unnest($3::text[], $4::text[], $5::uuid[]) WITH ORDINALITY AS u(phone, event, rid, n)
  WHERE (SELECT ok FROM ours)
  ORDER BY u.n
  ON CONFLICT (rid) DO NOTHING
  RETURNING seq
),
had AS (
  SELECT seq FROM ${db.s}.journal WHERE rid = ANY($5::uuid[]) AND job = $1 AND (SELECT ok FROM ours) AND NOT EXISTS (SELECT 1 FROM ins)
)
SELECT (SELECT ok FROM ours) AS ours, ((SELECT count(*) FROM ins) + (SELECT count(*) FROM had))::int AS n,
       GREATEST((SELECT max(seq) FROM ins), (SELECT max(seq) FROM had))::text AS upto`;
  const values: unknown[] = [lease.job, lease.token, rows.map((r) => r.phone), rows.map((r) => r.text), rows.map((r) => r.rid)];
  const { rows: result } = await db.query<{ ours: boolean; n: number; upto: string | null }>(sql, renew ? [...values, lease.seconds] : values);
  const row = result[0];
  if (!row?.ours) return { kind: 'lost' };
  if (row.n === rows.length && row.upto !== null) return { kind: 'written', upto: row.upto };
  return { kind: 'partly', found: row.n };
}
