import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir } from './fsync-dir.js';

/** The binary state files (snapshot, listing): written whole and atomically, read whole. */

/**
 * Writes `chunks` to `file` atomically and durably: a temporary file beside it, fsync'd, renamed
 * over it, the folder fsync'd. A failed write leaves the old file and no temporary one.
 */
export async function writeChunksAtomic(file: string, chunks: readonly Uint8Array[]): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w');
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
