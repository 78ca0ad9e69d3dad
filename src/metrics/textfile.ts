import { randomBytes } from 'node:crypto';
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
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

/**
 * The value of the sample `name{labels}` in a textfile written earlier (its labels exactly these),
 * or undefined when the file, or the sample, is not there: a failed run keeps, in the file it
 * replaces, the last success a run before it wrote.
 */
export async function readTextfileSample(file: string, name: string, labels: Readonly<Record<string, string>>): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const set = Object.entries(labels)
    .map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`)
    .join(',');
  const head = set === '' ? `${name} ` : `${name}{${set}} `;
  const line = text.split('\n').find((l) => l.startsWith(head));
  if (line === undefined) return undefined;
  const value = Number(line.slice(head.length).split(' ')[0]);
  return Number.isFinite(value) ? value : undefined;
}
