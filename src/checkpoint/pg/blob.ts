/**
 * Large byte values (a snapshot, a listing): kept deflated (their columns of numbers shrink several
 * times, and node-postgres reads a bytea as hex text, twice its size), and read in parts, so that a
 * value of a million contacts is never one string of hundreds of megabytes. The columns are stored as
 * they are given (STORAGE EXTERNAL: the server does not compress them again), so the server reads
 * each part alone, and each part is sent as base64 text (node-postgres would read a bytea as hex). Deflating and inflating run off the event loop.
 */
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import type { Queryable } from './db.js';

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/** The chunks of an image as the bytes to store. */
export function pack(chunks: readonly Uint8Array[]): Promise<Buffer> {
  return deflate(Buffer.concat(chunks), { level: 1 });
}

/** The image stored by `pack`; undefined when it cannot be inflated (it is then read as none). */
export function unpack(data: Buffer): Promise<Buffer | undefined> {
  return inflate(data).catch(() => undefined);
}

/** The size of one part read. */
const PART_BYTES = 32 << 20;

/** The `data` of the row of `table` (schema-qualified) for `job`, `size` bytes long. Call inside a REPEATABLE READ transaction, so that every part is of the same value. */
export async function readBytes(c: Queryable, table: string, job: string, size: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let from = 0; from < size; from += PART_BYTES) {
    // As base64 text: a third of the bytes more, where node-postgres's bytea is hex text (twice as many), and decoded faster.
    const { rows } = await c.query<{ part: string | null }>(`SELECT encode(substring(data FROM $2 FOR $3), 'base64') AS part FROM ${table} WHERE job = $1`, [job, from + 1, PART_BYTES]);
    const text = rows[0]?.part;
    if (!text) break;
    parts.push(Buffer.from(text, 'base64'));
  }
  return parts.length === 1 ? (parts[0] ?? Buffer.alloc(0)) : Buffer.concat(parts);
}

/** Runs `body` in a REPEATABLE READ, READ ONLY transaction: every statement sees the same committed state. */
export async function consistentRead<T>(tx: <R>(body: (c: Queryable) => Promise<R>) => Promise<R>, body: (c: Queryable) => Promise<T>): Promise<T> {
  return tx(async (c) => {
    await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    return body(c);
  });
}
