/** `StateStore.jobs` in the database: every job opened once (a row of `jobs`), with its journal's first header. */
import { parseEvent } from '../json-line.js';
import { storedJob } from '../stored-jobs.js';
import type { StoredJob } from '../store.js';
import type { Db } from './db.js';
import { unavailable } from './errors.js';

export async function pgStoredJobs(db: Db): Promise<StoredJob[]> {
  const { rows } = await db
    .query<{ job: string; event: string | null }>(
      // Each job's first header, found through the journal's key (job, seq): the journal itself is never scanned.
      `SELECT j.job, h.event FROM ${db.s}.jobs j
         LEFT JOIN LATERAL (SELECT event FROM ${db.s}.journal WHERE job = j.job AND phone IS NULL ORDER BY seq LIMIT 1) h ON true
        ORDER BY j.job`,
    )
    .catch((err: unknown) => {
      throw unavailable(err, db.url);
    });
  return rows.map((r) => {
    const event = r.event === null ? undefined : parseEvent(r.event);
    return storedJob(r.job, event?.t === 'header' ? event : undefined);
  });
}
