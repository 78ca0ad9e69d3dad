/**
 * A short exclusive lock on a file of the state folder, for a read-and-rewrite that lasts
 * milliseconds (the messaging-limit holds): the lock file is created with O_EXCL, holding its
 * owner (pid, host) and a token of its own; a process that finds it waits and looks again. A lock
 * whose process is gone (this host) or older than the stale timeout (another host, or a process
 * stuck for that long) is broken, under a mark named after that very lock file, so that two
 * processes breaking it at once cannot both delete it, nor delete the next owner's lock.
 */
import { randomBytes } from 'node:crypto';
import { readFile, stat, unlink } from 'node:fs/promises';
import { makePrivateDir, openPrivate } from '../../files/private.js';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreWriteError } from '../errors.js';
import { isProcessAlive } from './lock.js';
import { storeWriteError } from './state-file-error.js';

/** A lock held longer than this is taken as left by a process that stopped; the work it guards lasts milliseconds. */
export const STALE_LOCK_MS = 30_000;
/** How long a process waits for the lock before it gives up (a live holder keeps it milliseconds). */
const PATIENCE_MS = 60_000;

export interface ShortLockOptions {
  /** Wall time (ms), for the stale timeout and the patience; tests may inject it. */
  wallClock?: () => number;
}

/** Runs `work` while holding the lock file `lockFile`; `what` names what it guards, for people. */
export async function withShortLock<T>(lockFile: string, what: string, work: () => Promise<T>, options: ShortLockOptions = {}): Promise<T> {
  const wall = options.wallClock ?? Date.now;
  const token = `${JSON.stringify({ pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') })}\n`;
  const deadline = wall() + PATIENCE_MS;
  await makePrivateDir(path.dirname(lockFile)).catch((err: unknown) => {
    throw storeWriteError(err, lockFile, `the lock of ${what}`);
  });
  for (let round = 0; ; round++) {
    if (await place(lockFile, token, what)) break;
    if (await breakIfStale(lockFile, wall)) continue;
    if (wall() >= deadline) {
      throw new StoreWriteError(`could not take the lock ${lockFile} of ${what}: another process has held it for a minute`, `if no outreach process runs on this state folder, delete ${lockFile} and run again`);
    }
    await sleep(Math.min(50, 2 + round) + Math.random() * 5);
  }
  try {
    return await work();
  } finally {
    const now = await readFile(lockFile, 'utf8').catch(() => undefined);
    if (now === token) await unlink(lockFile).catch(() => undefined);
  }
}

/** Creates the lock file holding `token`: true when it is ours, false when it exists. */
async function place(lockFile: string, token: string, what: string): Promise<boolean> {
  let handle;
  try {
    handle = await openPrivate(lockFile, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw storeWriteError(err, lockFile, `the lock of ${what}`);
  }
  try {
    await handle.writeFile(token);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(lockFile).catch(() => undefined);
    throw storeWriteError(err, lockFile, `the lock of ${what}`);
  }
  await handle.close();
  return true;
}

/** Removes the lock when it is stale; true when it is gone (removed, by us or another). */
async function breakIfStale(lockFile: string, wall: () => number): Promise<boolean> {
  const found = await look(lockFile);
  if (found === undefined) return true;
  const owner = parseOwner(found.text);
  const dead = owner !== undefined && owner.host === hostname() && !isProcessAlive(owner.pid);
  if (!dead && wall() - found.mtimeMs <= STALE_LOCK_MS) return false;
  const mark = `${lockFile}.break-${found.identity}`;
  let handle;
  try {
    handle = await openPrivate(mark, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    // Another process is breaking this very lock; a mark it left when it died is removed once old.
    const m = await stat(mark).catch(() => undefined);
    if (m !== undefined && wall() - m.mtimeMs > STALE_LOCK_MS) await unlink(mark).catch(() => undefined);
    return false;
  }
  try {
    await handle.close();
    const now = await look(lockFile);
    if (now?.identity === found.identity && now.text === found.text) await unlink(lockFile).catch(() => undefined);
    return true;
  } finally {
    await unlink(mark).catch(() => undefined);
  }
}

/** The lock file's text and identity (device, inode, time): another file, or the same name rewritten, differs. */
async function look(lockFile: string): Promise<{ text: string; mtimeMs: number; identity: string } | undefined> {
  try {
    const [info, text] = await Promise.all([stat(lockFile), readFile(lockFile, 'utf8')]);
    return { text, mtimeMs: info.mtimeMs, identity: `${info.dev}-${info.ino}-${Math.floor(info.mtimeMs)}` };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function parseOwner(text: string): { pid: number; host: string } | undefined {
  try {
    const v = JSON.parse(text) as { pid?: unknown; host?: unknown };
    return typeof v.pid === 'number' && Number.isInteger(v.pid) && v.pid > 0 && typeof v.host === 'string' ? { pid: v.pid, host: v.host } : undefined;
  } catch {
    return undefined;
  }
}
