import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FILE_MODE, makePrivateDir, openPrivate } from '../files/private.js';

/**
 * Streams chunks into `<file>.<pid>.tmp`, fsyncs it and renames it over `file`: a reader never
 * sees half a report, and an interrupted write leaves the previous one. The folder is made if missing
 * (a `plan` writes rejects for a job that never ran). The file is private (0600), its new folders 0700.
 */
export async function writeFileAtomic(
  file: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await makePrivateDir(path.dirname(file));
  try {
    if (Symbol.iterator in chunks) {
      // A synchronous source is written piece by piece, each before the next is asked for (a writer may reuse its buffer).
      const handle = await openPrivate(temp, 'w');
      try {
        for (const chunk of chunks) await handle.writeFile(chunk);
        await handle.sync();
      } finally {
        await handle.close();
      }
    } else {
      await pipeline(Readable.from(chunks), createWriteStream(temp, { mode: FILE_MODE }));
      const handle = await openPrivate(temp, 'r+');
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
