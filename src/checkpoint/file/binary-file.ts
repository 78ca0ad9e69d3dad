import { readSync } from 'node:fs';

/** The binary state files (snapshot, listing): written whole and atomically (files/atomic.ts); read head first, then part by part. */

export { headOf, readHead } from '../binary-head.js';

/** The most a read of a head takes at once: a long head (a snapshot's counters, megabytes) is not overshot by more. */
const MAX_CHUNK = 1 << 20;

/**
 * The first bytes of an open file up to the end of a binary image's head (two lines), or all of it
 * when it has no second line: each byte read once, in chunks that grow to a megabyte, and nothing
 * past the head kept.
 */
export function headBytes(fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  let newlines = 0;
  let end = -1;
  while (total < size && end === -1) {
    const chunk = Buffer.allocUnsafe(Math.min(Math.max(1 << 16, Math.min(total, MAX_CHUNK)), size - total));
    const n = readSync(fd, chunk, 0, chunk.length, total);
    if (n === 0) break;
    const read = chunk.subarray(0, n);
    chunks.push(read);
    for (let at = read.indexOf(0x0a); at !== -1; at = read.indexOf(0x0a, at + 1)) {
      newlines += 1;
      if (newlines === 2) {
        end = total + at + 1;
        break;
      }
    }
    total += n;
  }
  const length = end === -1 ? total : end;
  const [only] = chunks;
  return chunks.length === 1 && only ? only.subarray(0, length) : Buffer.concat(chunks, length);
}
