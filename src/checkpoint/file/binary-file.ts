import { readSync } from 'node:fs';

/** The binary state files (snapshot, listing): written whole and atomically (files/atomic.ts); read head first, then part by part. */

export { headOf, readHead } from '../binary-head.js';

/**
 * The first bytes of an open file, enough to hold a binary image's head (two lines), or all of it
 * when shorter: read into a buffer that grows fourfold until the head is in it, each byte read from
 * the file once (what was read is copied into the larger buffer, not read again).
 */
export function headBytes(fd: number, size: number): Buffer {
  let buf = Buffer.alloc(0);
  let read = 0;
  let first = -1;
  for (let length = 1 << 16; ; length *= 4) {
    const grown = Buffer.alloc(Math.min(length, size));
    buf.copy(grown, 0, 0, read);
    buf = grown;
    const n = read < buf.length ? readSync(fd, buf, read, buf.length - read, read) : 0;
    const from = read;
    read += n;
    const head = buf.subarray(0, read);
    if (first === -1) first = head.indexOf(0x0a);
    if ((first !== -1 && head.indexOf(0x0a, Math.max(first + 1, from)) !== -1) || read >= size || n === 0) return head;
  }
}
