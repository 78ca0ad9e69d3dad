/**
 * Large byte values (a snapshot, a listing) read in parts: node-postgres reads a bytea as hex text,
 * so a value of hundreds of megabytes read whole would be a string twice its size. The columns are
 * stored uncompressed (STORAGE EXTERNAL), so the server reads each part alone. Call inside a
 * REPEATABLE READ transaction, so that every part is of the same value.
 */
import type { Queryable } from './db.js';

/** The size of one part read. */
const PART_BYTES = 32 << 20;

/** The `data` of the row of `table` (schema-qualified) for `job`, `size` bytes long. */
export async function readBytes(c: Queryable, table: string, job: string, size: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let from = 0; from < size; from += PART_BYTES) {
    const { rows } = await c.query<{ part: Buffer }>(`SELECT substring(data FROM $2 FOR $3) AS part FROM ${table} WHERE job = $1`, [job, from + 1, PART_BYTES]);
    const part = rows[0]?.part;
    if (!part) break;
    parts.push(part);
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
