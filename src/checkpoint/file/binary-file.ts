import { readSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { openPrivate } from '../../files/private.js';
import { fsyncDir } from '../../files/fsync-dir.js';

/** The binary state files (snapshot, listing): written whole and atomically; read head first, then part by part. */

/**
 * Writes `chunks` to `file` atomically and durably: a temporary file beside it, fsync'd, renamed
 * over it, the folder fsync'd. A failed write leaves the old file and no temporary one.
 */
export async function writeChunksAtomic(file: string, chunks: readonly Uint8Array[]): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await openPrivate(temp, 'w');
  try {
    for (const chunk of chunks) {
      for (let offset = 0; offset < chunk.length; ) offset += (await handle.write(chunk, offset)).bytesWritten;
    }
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await rename(temp, file);
  await fsyncDir(path.dirname(file));
}

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
