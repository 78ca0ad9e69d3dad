import { readSync } from 'node:fs';

/** The binary state files (snapshot, listing): written whole and atomically (files/atomic.ts); read head first, then part by part. */

export { headOf, readHead } from '../binary-head.js';

/** The first bytes of an open file, enough to hold a binary image's head (two lines), or all of it when shorter. */
export function headBytes(fd: number, size: number): Buffer {
  for (let length = 1 << 16; ; length *= 4) {
    const buf = Buffer.alloc(Math.min(length, size));
    const n = readSync(fd, buf, 0, buf.length, 0);
    const head = buf.subarray(0, n);
    const first = head.indexOf(0x0a);
    if ((first !== -1 && head.indexOf(0x0a, first + 1) !== -1) || n >= size) return head;
  }
}
