/**
 * A `.outreach/` folder an earlier version kept beside a job file (its state folder then): the first
 * command that meets it takes it into the account's store, once, under the folder's own lock, and
 * leaves it as it was with a mark saying where it went (`MOVED.txt`). Nothing in a folder so marked is
 * read again.
 */
import { readFile, stat } from 'node:fs/promises';
import { writePrivateFile } from '../../files/private.js';
import path from 'node:path';
import { withShortLock } from './lock.js';
import { journalFolders } from './folder-facts.js';
import { globalStatePaths } from './paths.js';

export const MOVED_MARK = 'MOVED.txt';

/** Whether `folder` is a state folder not taken in yet: it holds a job's journal or a shared list, and no mark. */
export async function legacyFolderWaiting(folder: string): Promise<boolean> {
  const info = await stat(folder).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) return false;
  if (await exists(path.join(folder, MOVED_MARK))) return false;
  if ((await journalFolders(folder)).length > 0) return true;
  const g = globalStatePaths(folder);
  for (const file of [g.suppressions, g.ledger, g.window, g.events]) if (await exists(file)) return true;
  return false;
}

/** Where a folder's mark says it went, when it has one. */
export async function movedTo(folder: string): Promise<string | undefined> {
  const text = await readFile(path.join(folder, MOVED_MARK), 'utf8').catch(() => undefined);
  return text?.match(/^into: (.+)$/m)?.[1];
}

/**
 * Runs `take` once for `folder` under its lock, then marks it moved `into` the store; undefined when
 * another process took it in meanwhile (its mark is there once the lock is ours).
 */
export async function takeLegacyFolder<T>(folder: string, into: string, take: () => Promise<T>, now: () => Date = () => new Date()): Promise<T | undefined> {
  return withShortLock(path.join(folder, '.taking-in.lock'), `taking ${folder} into the account's store`, async () => {
    if (!(await legacyFolderWaiting(folder))) return undefined;
    const outcome = await take();
    await writePrivateFile(
      path.join(folder, MOVED_MARK),
      `This state folder was taken into the account's store; nothing here is read any more (it is kept as it was).\ninto: ${into}\nat: ${now().toISOString()}\n`,
    );
    return outcome;
  });
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined)) !== undefined;
}
