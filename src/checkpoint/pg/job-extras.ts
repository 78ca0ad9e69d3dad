/** A job's listing and plan rejects in the database (tables `listings` and `plan_rejects`). */
import { decodeListing, encodeListing } from '../listing-codec.js';
import type { ContactListing } from '../listing.js';
import { rowKey, type JobNoteKey, type RowRef } from '../store.js';
import { consistentRead, pack, readBytes, unpack } from './blob.js';
import type { Db } from './db.js';
import { unavailable, writeFailed } from './errors.js';

export async function planRejects(db: Db, job: string): Promise<ReadonlySet<string>> {
  const { rows } = await db.query<{ rows: unknown }>(`SELECT rows FROM ${db.s}.plan_rejects WHERE job = $1`, [job]).catch((err: unknown) => {
    throw unavailable(err, db.url);
  });
  const kept = rows[0]?.rows;
  return new Set(Array.isArray(kept) ? kept.filter((r): r is string => typeof r === 'string') : []);
}

export async function savePlanRejects(db: Db, job: string, rows: Iterable<RowRef>): Promise<void> {
  const keys = JSON.stringify(Array.from(rows, rowKey));
  await db
    .query(`INSERT INTO ${db.s}.plan_rejects (job, rows) VALUES ($1, $2::jsonb) ON CONFLICT (job) DO UPDATE SET rows = EXCLUDED.rows`, [job, keys])
    .catch((err: unknown) => {
      throw writeFailed(err, db.url, `the plan's rejected rows of job "${job}"`);
    });
}

/** The listing saved for `source` (undefined: whatever its source); undefined when there is none, it is of another source, or it does not check. */
export async function listing(db: Db, job: string, source: string | undefined): Promise<ContactListing | undefined> {
  const data = await consistentRead(
    (body) => db.tx(body),
    async (c) => {
      const { rows } =
        source === undefined
          ? await c.query<{ size: number }>(`SELECT octet_length(data) AS size FROM ${db.s}.listings WHERE job = $1`, [job])
          : await c.query<{ size: number }>(`SELECT octet_length(data) AS size FROM ${db.s}.listings WHERE job = $1 AND source = $2`, [job, source]);
      const size = rows[0]?.size;
      return size === undefined ? undefined : readBytes(c, `${db.s}.listings`, job, size);
    },
  ).catch((err: unknown) => {
    throw unavailable(err, db.url);
  });
  const image = data && (await unpack(data));
  return image && decodeListing(image, source);
}

export async function saveListing(db: Db, job: string, source: string, contacts: ContactListing): Promise<void> {
  const data = await pack(encodeListing(source, contacts));
  await db
    .query(`INSERT INTO ${db.s}.listings (job, source, data) VALUES ($1, $2, $3) ON CONFLICT (job) DO UPDATE SET source = EXCLUDED.source, data = EXCLUDED.data`, [job, source, data])
    .catch((err: unknown) => {
      throw writeFailed(err, db.url, `the listing of job "${job}"`);
    });
}

/** A job's note under `key` (table `job_notes`); undefined when none. */
export async function jobNote(db: Db, job: string, key: JobNoteKey): Promise<unknown> {
  const { rows } = await db.query<{ value: unknown }>(`SELECT value FROM ${db.s}.job_notes WHERE job = $1 AND key = $2`, [job, key]).catch((err: unknown) => {
    throw unavailable(err, db.url);
  });
  return rows[0]?.value;
}

export async function saveJobNote(db: Db, job: string, key: JobNoteKey, value: unknown): Promise<void> {
  await db
    .query(`INSERT INTO ${db.s}.job_notes (job, key, value) VALUES ($1, $2, $3::jsonb) ON CONFLICT (job, key) DO UPDATE SET value = EXCLUDED.value`, [job, key, JSON.stringify(value)])
    .catch((err: unknown) => {
      throw writeFailed(err, db.url, `the note "${key}" of job "${job}"`);
    });
}
