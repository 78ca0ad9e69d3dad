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
 * After a failed write every waiting and later append rejects with the same StoreWriteError: what
 * reached the database is unknown, and nothing that depends on it may go ahead.
 */
import { StoreWriteError } from '../errors.js';
import type { CheckpointEvent } from '../types.js';
import type { Db } from './db.js';
import { writeFailed } from './errors.js';
import { describeOwner, leaseHolder, type JobLease } from './lease.js';

/** Events one statement writes at most. */
const MAX_BATCH = 5_000;

interface Waiter {
  event: CheckpointEvent;
  text: string;
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

  const check = `SELECT lease_token FROM ${db.s}.jobs WHERE job = $1 FOR SHARE`;
  const renew = `UPDATE ${db.s}.jobs SET lease_expires_at = now() + make_interval(secs => $5) WHERE job = $1 AND lease_token = $2::bigint RETURNING lease_token`;
  const insert = (lease: string) => `WITH lease AS MATERIALIZED (${lease}),
ins AS (
  INSERT INTO ${db.s}.journal (job, phone, token, event)
  SELECT $1, u.phone, $2::bigint, u.event FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS u(phone, event, n)
  WHERE EXISTS (SELECT 1 FROM lease WHERE lease_token = $2::bigint)
  ORDER BY u.n
  RETURNING seq
)
SELECT (SELECT count(*) FROM ins)::int AS n, (SELECT max(seq) FROM ins)::text AS upto`;
  const checked = insert(check);
  const renewing = insert(renew);

  async function write(batch: readonly Waiter[]): Promise<string> {
    const overdue = lease.overdue();
    const at = lease.clock();
    const values: unknown[] = [job, lease.token, batch.map((w) => (w.event.t === 'header' ? null : w.event.phone)), batch.map((w) => w.text)];
    let result;
    try {
      result = await db.query<{ n: number; upto: string | null }>(overdue ? renewing : checked, overdue ? [...values, lease.seconds] : values);
    } catch (err) {
      throw writeFailed(err, db.url, `the journal of job "${job}"`);
    }
    const row = result.rows[0];
    // Nothing inserted: the token is another owner's now.
    if (row && row.n === batch.length && row.upto !== null) {
      if (overdue) lease.renewed(at);
      return row.upto;
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
        queue.push({ event, text, resolve, reject });
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
