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

/** The first two lines of a binary state file: its `magic` line (name and version), then its meta as one line of JSON. */
export function headOf(magic: string, meta: unknown): Buffer {
  return Buffer.from(`${magic}${JSON.stringify(meta)}\n`, 'utf8');
}

/** The meta of a file that starts with `magic`, and where the bytes after its head start; undefined for any other file or a torn head. */
export function readHead(data: Buffer, magic: string): { meta: object; end: number } | undefined {
  if (data.subarray(0, magic.length).toString('utf8') !== magic) return undefined;
  const newline = data.indexOf(0x0a, magic.length);
  if (newline === -1) return undefined;
  let meta: unknown;
  try {
    meta = JSON.parse(data.toString('utf8', magic.length, newline));
  } catch {
    return undefined;
  }
  return typeof meta === 'object' && meta !== null ? { meta, end: newline + 1 } : undefined;
}
