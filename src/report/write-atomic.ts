import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Streams chunks into `<file>.<pid>.tmp`, fsyncs it and renames it over `file`: a reader never
 * sees half a report, and an interrupted write leaves the previous one. The folder is made if missing
 * (a `plan` writes rejects for a job that never ran).
 */
export async function writeFileAtomic(
  file: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await mkdir(path.dirname(file), { recursive: true });
  try {
    if (Symbol.iterator in chunks) {
      // A synchronous source is written piece by piece, each before the next is asked for (a writer may reuse its buffer).
      const handle = await open(temp, 'w');
      try {
        for (const chunk of chunks) await handle.writeFile(chunk);
        await handle.sync();
      } finally {
        await handle.close();
      }
    } else {
      await pipeline(Readable.from(chunks), createWriteStream(temp));
      const handle = await open(temp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}
