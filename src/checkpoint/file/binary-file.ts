import { readSync } from 'node:fs';

/** The binary state files (snapshot, listing): written whole and atomically (files/atomic.ts); read head first, then part by part. */

export { headOf, readHead } from '../binary-head.js';

/**
 * The first bytes of an open file, enough to hold a binary image's head (two lines), or all of it
 * when shorter: each byte read once, in chunks that double the bytes read so far (a head of 10 MB, a
 * snapshot's counters, is read in a dozen reads, not again from the start each time).
 */
export function headBytes(fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  let newlines = 0;
  while (total < size) {
    const chunk = Buffer.allocUnsafe(Math.min(Math.max(1 << 16, total), size - total));
    const n = readSync(fd, chunk, 0, chunk.length, total);
    if (n === 0) break;
    const read = chunk.subarray(0, n);
    chunks.push(read);
    total += n;
    for (let at = read.indexOf(0x0a); at !== -1 && newlines < 2; at = read.indexOf(0x0a, at + 1)) newlines += 1;
    if (newlines >= 2) break;
  }
  const [only] = chunks;
  return chunks.length === 1 && only ? only : Buffer.concat(chunks, total);
}
