import { randomBytes } from 'node:crypto';
import { chmod, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes the metrics text for node_exporter's textfile collector, atomically: a temporary file in
 * the same folder (its name does not end in `.prom`, so the collector never reads it half written),
 * then a rename over `file`. Mode 0644 whatever the umask: the collector runs as another user, and
 * the file holds no personal data (no label carries a phone, a name or a message): the one file the
 * tool writes that others may read.
 */
export async function writeTextfile(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, { mode: 0o644 });
    await chmod(temp, 0o644);
    await rename(temp, file);
  } catch (err) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}
