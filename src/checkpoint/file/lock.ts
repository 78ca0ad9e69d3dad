import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

export interface LockInfo {
  pid: number;
  startedAt: string;
  command: string;
}

/** What the lock file holds. */
export interface LockOwner extends LockInfo {
  host: string;
}

export interface Lock {
  readonly file: string;
  /** The pid of a dead process whose lock was taken over, if any: the caller may say so. */
  readonly tookOverFrom?: number;
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

/** The job is running in another live process (or one this host cannot check). */
export class LockedError extends Error {
  readonly userError = true;
  constructor(
    readonly job: string,
    readonly pid: number | undefined,
    readonly owner: LockOwner | undefined,
    detail: string,
  ) {
    super(`job "${job}" is already running (${detail}); wait for it or stop it`);
    this.name = 'LockedError';
  }
}

/** A lock file with no readable content younger than this is taken as being written right now. */
const FRESH_UNREADABLE_MS = 10_000;

/**
 * Takes the job lock by creating the file exclusively (`wx`). A lock whose process is alive on
 * this host (or on another host: it cannot be checked) refuses with LockedError; a lock left by a
 * dead process is taken over, once (of several processes racing for it, one wins).
 */
export async function acquireLock(lockFile: string, info: LockInfo): Promise<Lock> {
  const job = path.basename(path.dirname(lockFile));
  const owner: LockOwner = { pid: info.pid, host: hostname(), startedAt: info.startedAt, command: info.command };
  const content = JSON.stringify(owner) + '\n';
  await mkdir(path.dirname(lockFile), { recursive: true });

  if (await tryCreate(lockFile, content)) return held(lockFile, content);

  const found = await readLock(lockFile);
  if (found === undefined) {
    // Released between our create and our read: one more try.
    if (await tryCreate(lockFile, content)) return held(lockFile, content);
    throw await lockedBy(job, lockFile);
  }
  const refusal = await refuse(job, lockFile, found);
  if (refusal) throw refusal;

  await removeStale(job, lockFile, found.text);
  if (await tryCreate(lockFile, content)) return held(lockFile, content, found.owner?.pid);
  throw await lockedBy(job, lockFile);
}

/** Whether a process of this host is alive: EPERM means it exists but belongs to someone else. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Found {
  text: string;
  owner?: LockOwner;
  mtimeMs: number;
}

async function tryCreate(lockFile: string, content: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockFile, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

function held(file: string, content: string, tookOverFrom?: number): Lock {
  return {
    file,
    ...(tookOverFrom !== undefined && { tookOverFrom }),
    async release() {
      const now = await readLock(file);
      if (now?.text === content) await unlink(file).catch(ignoreMissing);
    },
  };
}

async function readLock(lockFile: string): Promise<Found | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(lockFile, 'utf8'), stat(lockFile)]);
    return { text, owner: parseOwner(text), mtimeMs: info.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    if (typeof v.pid !== 'number' || !Number.isInteger(v.pid) || v.pid <= 0) return undefined;
    return {
      pid: v.pid,
      host: typeof v.host === 'string' ? v.host : '',
      startedAt: typeof v.startedAt === 'string' ? v.startedAt : '',
      command: typeof v.command === 'string' ? v.command : '',
    };
  } catch {
    return undefined;
  }
}

/** The LockedError to throw for a lock that is not stale, or undefined when it may be taken over. */
async function refuse(job: string, lockFile: string, found: Found): Promise<LockedError | undefined> {
  const { owner } = found;
  if (!owner) {
    if (Date.now() - found.mtimeMs < FRESH_UNREADABLE_MS) {
      return new LockedError(job, undefined, undefined, `another process is taking its lock ${lockFile} right now`);
    }
    return undefined; // unreadable and old: a crash while writing it
  }
  if (owner.host !== hostname()) {
    return new LockedError(job, owner.pid, owner, `${describe(owner)} on host ${owner.host}, which cannot be checked from here`);
  }
  return isProcessAlive(owner.pid) ? new LockedError(job, owner.pid, owner, describe(owner)) : undefined;
}

/**
 * Removes a stale lock under a second, short-lived lock (`<lock>.takeover`, created `wx`): only its
 * holder may delete the lock file, and only if it still holds the very text found stale. Without
 * it, two processes finding the same stale lock could each delete what the other just created.
 */
async function removeStale(job: string, lockFile: string, staleText: string): Promise<void> {
  const mutex = `${lockFile}.takeover`;
  if (!(await tryCreate(mutex, `${process.pid}\n`))) {
    const since = await stat(mutex).then((s) => Date.now() - s.mtimeMs, () => 0);
    // A takeover never lasts seconds: an old one was left by a crash.
    if (since < FRESH_UNREADABLE_MS) throw new LockedError(job, undefined, undefined, 'another process is taking over its lock right now');
    await unlink(mutex).catch(ignoreMissing);
    if (!(await tryCreate(mutex, `${process.pid}\n`))) throw await lockedBy(job, lockFile);
  }
  try {
    const now = await readLock(lockFile);
    if (now === undefined) return;
    if (now.text !== staleText) {
      const owner = now.owner;
      throw new LockedError(job, owner?.pid, owner, owner ? describe(owner) : 'another process took the lock');
    }
    await unlink(lockFile).catch(ignoreMissing);
  } finally {
    await unlink(mutex).catch(ignoreMissing);
  }
}

async function lockedBy(job: string, lockFile: string): Promise<LockedError> {
  const found = await readLock(lockFile);
  const owner = found?.owner;
  return new LockedError(job, owner?.pid, owner, owner ? describe(owner) : 'another process holds the lock');
}

function describe(owner: LockOwner): string {
  const started = owner.startedAt ? `, started ${owner.startedAt}` : '';
  return `pid ${owner.pid}${started}`;
}

function ignoreMissing(err: unknown): void {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
}
