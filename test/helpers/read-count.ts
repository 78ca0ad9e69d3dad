import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';

const realCreateReadStream = fs.createReadStream;

/** Counts the streams opened on `file` from now on (every whole read of a contact list streams it); `stopCountingReads` undoes it. */
export function countReadsOf(file: string): () => number {
  let reads = 0;
  fs.createReadStream = ((...args: Parameters<typeof fs.createReadStream>) => {
    if (path.resolve(String(args[0])) === path.resolve(file)) reads += 1;
    return realCreateReadStream(...args);
  }) as typeof fs.createReadStream;
  syncBuiltinESMExports();
  return () => reads;
}

/** Gives `fs.createReadStream` back to node. */
export function stopCountingReads(): void {
  fs.createReadStream = realCreateReadStream;
  syncBuiltinESMExports();
}
