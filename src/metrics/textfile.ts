import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../files/atomic.js';

/**
 * Writes the metrics text for node_exporter's textfile collector through the one atomic writer
 * (`files/atomic.ts`: a temporary file in the same folder, whose name does not end in `.prom`, so the
 * collector never reads it half written, fsync'd and renamed over `file`, then the folder fsync'd).
 * Mode 0644 whatever the umask: the collector runs as another user, and the file holds no personal
 * data (no label carries a phone, a name or a message): the one file the tool writes that others may
 * read. The folder must be there (it is node_exporter's).
 */
export async function writeTextfile(file: string, text: string): Promise<void> {
  await writeFileAtomic(file, text, { forOthers: true });
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
