/**
 * A small state file of entries by id that every process of the state folder rewrites whole
 * (atomically, under its short lock): `{"v":1,"<key>":{"<id>":{…}}}`. The messaging limit's holds
 * (budget-file.ts) and a number's senders (rate-shares.ts) are two.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../../files/atomic.js';
import { StateFileError, stateFileError, storeWriteError } from './state-file-error.js';

/** The file's entries under `key`, each as its fields; none when the file is not there. */
export async function readEntries(file: string, key: string): Promise<Array<[string, Record<string, unknown>]>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw stateFileError(err, file);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Written whole by rename, so never torn: unreadable means edited by hand. Counting no entry could overshoot a limit.
    throw new StateFileError(`${file} is not readable JSON; stop every outreach run of this state folder, delete it, and run again`);
  }
  const stored = (value as Record<string, unknown> | null)?.[key];
  if (typeof stored !== 'object' || stored === null) return [];
  return Object.entries(stored as Record<string, unknown>).map(([id, fields]) => [id, (fields ?? {}) as Record<string, unknown>]);
}

/** Replaces the file with these entries under `key`; `what` names it for people when it cannot be written. */
export async function writeEntries(file: string, key: string, entries: Record<string, unknown>, what: string): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify({ v: 1, [key]: entries })}\n`).catch((err: unknown) => {
    throw storeWriteError(err, file, what);
  });
}
