import { createWriteStream } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Streams chunks into `<file>.<pid>.tmp`, fsyncs it and renames it over `file`: a reader never
 * sees half a report, and an interrupted write leaves the previous one.
 */
export async function writeFileAtomic(
  file: string,
  chunks: Iterable<string> | AsyncIterable<string>,
): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await pipeline(Readable.from(chunks), createWriteStream(temp));
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}
