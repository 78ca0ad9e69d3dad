/**
 * A baseline: a fresh Node reading the files named in argv once, start to end, in 1 MiB pieces into
 * one buffer (nothing parsed, nothing kept); prints the bytes read.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const piece = Buffer.allocUnsafe(1 << 20);
let total = 0;
for (const file of process.argv.slice(2)) {
  const fd = openSync(file, 'r');
  try {
    for (let n = readSync(fd, piece, 0, piece.length, null); n > 0; n = readSync(fd, piece, 0, piece.length, null)) total += n;
  } finally {
    closeSync(fd);
  }
}
process.stdout.write(`${total}\n`);
