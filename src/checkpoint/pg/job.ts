/**
 * A job in the database: its lease (`lease.ts`: one owner, a fencing token, an expiry the database's
 * clock decides), its journal (`journal-writer.ts`: appends batched and fenced), and its state read
 * back (`job-state.ts`: the latest snapshot and the journal rows after it).
 */
import { applyEvent } from '../apply-event.js';
import { parseEvent } from '../json-line.js';
import type { StateTable } from '../state-table.js';
import type { ContactEvent } from '../types.js';
import type { JobFiles, JobOwner, JobRunner, JobStore, JobView, KnownConversation } from '../store.js';
import type { HeaderEvent } from '../types.js';
import type { Db } from './db.js';
import { unavailable } from './errors.js';
import { leaseHolder, takeLease, type LeaseOptions } from './lease.js';
import { pgJournalWriter } from './journal-writer.js';
import { JobVersionError, loadPgJobState, SNAPSHOT_AFTER_EVENTS, SNAPSHOT_DURING_RUN_EVENTS, writePgSnapshot, type PgJobState } from './job-state.js';

export type { LeaseOptions } from './lease.js';

/** An error of reading: the store's own (unavailable), unless it is one a person must read as it is. */
function readFailed(db: Db) {
  return (err: unknown): never => {
    if (err instanceof JobVersionError) throw err;
    throw unavailable(err, db.url);
  };
}

/** Takes the job's lease (refusing while another live owner holds it), reads its state, and keeps it current as events are recorded. */
export async function openPgJob(db: Db, job: string, owner: JobOwner, files: JobFiles, options: LeaseOptions): Promise<JobStore> {
  const lease = await takeLease(db, job, owner, options);
  let loaded: PgJobState;
  try {
    loaded = await loadPgJobState(db, job).catch(readFailed(db));
  } catch (err) {
    await lease.release();
    throw err;
  }
  const state: StateTable = loaded.state;
  let header = loaded.header;
  let upto = loaded.upto;
  /** Journal rows no snapshot in the store covers. */
  let uncovered = loaded.tail;
  let snapshotting: Promise<void> | undefined;
  let closing: Promise<void> | undefined;

  const snapshot = (): Promise<void> => {
    const at = uncovered;
    // The image is taken now, of the state folded up to `upto`; a failed one is only a missed shortcut.
    const written = writePgSnapshot(db, job, state, header, upto).then(
      () => {
        uncovered -= at;
      },
      () => undefined,
    );
    snapshotting = written.finally(() => (snapshotting = undefined));
    return snapshotting;
  };

  const journal = pgJournalWriter(db, lease, (events, last) => {
    for (const event of events) {
      if (event.t === 'header') header = event;
      else applyEvent(state, event);
    }
    upto = last;
    uncovered += events.length;
    // A long run keeps a recent snapshot, so that opening the job after a crash reads a short tail.
    if (uncovered >= SNAPSHOT_DURING_RUN_EVENTS && !snapshotting && !closing) void snapshot();
  });

  return {
    files,
    get header() {
      return header;
    },
    states: state,
    notices: loaded.notices,
    ...(lease.tookOverFrom && { tookOverFrom: lease.tookOverFrom }),
    record: (event) => journal.append(event),
    close() {
      closing ??= (async () => {
        await journal.close();
        await snapshotting;
        if (!journal.broken && !lease.lost && uncovered >= SNAPSHOT_AFTER_EVENTS) await snapshot();
        await lease.release();
      })();
      return closing;
    },
  };
}

/** The job's state without its lease; undefined for a job never opened. A long tail is folded into a snapshot for the next reader (best effort). */
export async function readPgJob(db: Db, job: string): Promise<JobView | undefined> {
  const loaded = await loadPgJobState(db, job, { ifOpened: true }).catch(readFailed(db));
  if (!loaded) return undefined;
  if (loaded.tail >= SNAPSHOT_AFTER_EVENTS) await writePgSnapshot(db, job, loaded.state, loaded.header, loaded.upto).catch(() => undefined);
  return { header: loaded.header, states: loaded.state, notices: loaded.notices };
}

/** Who holds the job's live lease; an expired lease is nobody's. */
export function runningBy(db: Db, job: string): Promise<JobRunner | undefined> {
  return leaseHolder(db, job).catch(readFailed(db));
}

/** Every journal event of one contact, oldest first (the journal keeps them all, whatever a snapshot covers). */
export async function contactEvents(db: Db, job: string, phone: string): Promise<ContactEvent[]> {
  const { rows } = await db.query<{ event: string }>(`SELECT event FROM ${db.s}.journal WHERE job = $1 AND phone = $2 ORDER BY seq`, [job, phone]).catch(readFailed(db));
  const events: ContactEvent[] = [];
  for (const row of rows) {
    const event = parseEvent(row.event);
    if (event && event.t !== 'header' && event.phone === phone) events.push(event);
  }
  return events;
}

/** Client id → phone, over every job's journal (the latest event naming a client id wins). */
export async function knownPhones(db: Db): Promise<Map<string, string>> {
  const { rows } = await db
    .query<{ client_id: string; phone: string }>(
      `SELECT DISTINCT ON (client_id) client_id, phone FROM (
         SELECT (event::jsonb) ->> 'client_id' AS client_id, phone, seq FROM ${db.s}.journal WHERE phone IS NOT NULL AND event LIKE '%"client\\_id":%'
       ) e WHERE client_id IS NOT NULL ORDER BY client_id, seq DESC`,
    )
    .catch(readFailed(db));
  return new Map(rows.map((r) => [r.client_id, r.phone]));
}

/**
 * Conversation id → the number it was started from, over every job's journal: the event's own
 * `channel_id` (a pool's), else the one number its job's latest header names (the latest event naming
 * the conversation wins); and the company that job's header names.
 */
export async function knownConversations(db: Db): Promise<Map<string, KnownConversation>> {
  const { rows } = await db
    .query<{ conversation_id: string; channel_id: number | null; company_id: string | null }>(
      `SELECT DISTINCT ON (conversation_id) conversation_id, channel_id, company_id FROM (
         SELECT (j.event::jsonb) ->> 'conversation_id' AS conversation_id,
                COALESCE(((j.event::jsonb) ->> 'channel_id')::integer, h.channel_id) AS channel_id, h.company_id, j.seq
           FROM ${db.s}.journal j
           LEFT JOIN (
             SELECT DISTINCT ON (job) job,
                    CASE WHEN jsonb_typeof((event::jsonb) #> '{content,channel_id}') = 'number' THEN ((event::jsonb) #>> '{content,channel_id}')::integer END AS channel_id,
                    CASE WHEN jsonb_typeof((event::jsonb) #> '{content,company_id}') = 'number' THEN ((event::jsonb) #>> '{content,company_id}')::bigint END AS company_id
               FROM ${db.s}.journal WHERE phone IS NULL AND (event::jsonb) ->> 't' = 'header' ORDER BY job, seq DESC
           ) h ON h.job = j.job
          WHERE j.phone IS NOT NULL AND j.event LIKE '%"conversation\\_id":%'
       ) e WHERE conversation_id IS NOT NULL AND (channel_id IS NOT NULL OR company_id IS NOT NULL) ORDER BY conversation_id, seq DESC`,
    )
    .catch(readFailed(db));
  return new Map(
    rows.map((r) => [r.conversation_id, { ...(r.channel_id !== null && { channel: r.channel_id }), ...(r.company_id !== null && { company: Number(r.company_id) }) }]),
  );
}

/** The first header of the job's journal; undefined for a job never run. */
export async function pgJobHeader(db: Db, job: string): Promise<HeaderEvent | undefined> {
  const { rows } = await db.query<{ event: string }>(`SELECT event FROM ${db.s}.journal WHERE job = $1 AND phone IS NULL ORDER BY seq LIMIT 1`, [job]).catch(readFailed(db));
  const event = rows[0] && parseEvent(rows[0].event);
  return event?.t === 'header' ? event : undefined;
}

/** Whether the job's journal holds anything. */
export async function pgJobExists(db: Db, job: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM ${db.s}.journal WHERE job = $1 LIMIT 1`, [job]).catch(readFailed(db));
  return rows.length > 0;
}

/** The companies the jobs' headers name, ascending. */
export async function pgCompanies(db: Db): Promise<number[]> {
  const { rows } = await db
    .query<{ company_id: string }>(
      // Each job's first header, found through the journal's key (job, seq): the journal itself is never scanned.
      `SELECT DISTINCT ((h.event::jsonb) #>> '{content,company_id}')::bigint AS company_id
         FROM ${db.s}.jobs j CROSS JOIN LATERAL (SELECT event FROM ${db.s}.journal WHERE job = j.job AND phone IS NULL ORDER BY seq LIMIT 1) h
        WHERE (h.event::jsonb) ->> 't' = 'header' AND jsonb_typeof((h.event::jsonb) #> '{content,company_id}') = 'number' ORDER BY 1`,
    )
    .catch(readFailed(db));
  return rows.map((r) => Number(r.company_id));
}
