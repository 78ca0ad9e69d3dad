/**
 * The state folder's one lock implementation, a lock file named after what it guards, with its two
 * uses: a job's lock (`acquireLock`: held for a whole run, refused at once while its owner lives) and
 * a short exclusive lock (`withShortLock`: a read-and-rewrite of milliseconds, the messaging limit's
 * holds, a number's rate shares, a folder taken in; a process that finds it held waits). Both place
 * the lock file whole (written under a temporary name and linked into place), take over a stale one
 * under a mark named after that very file (so two processes cannot both remove it, nor remove the
 * next owner's), and remove it at the end only while it is still theirs.
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, open, readdir, unlink } from 'node:fs/promises';
import { makePrivateDir, openPrivate } from '../../files/private.js';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreWriteError } from '../errors.js';
import { isProcessAlive } from '../process-alive.js';
import { storeWriteError } from './state-file-error.js';

export interface LockInfo {
  /** The owner's machine; this one's name when not given. */
  host?: string;
  pid: number;
  startedAt: string;
  command: string;
  /** The job file the owner runs the job from (for people). */
  jobFile?: string;
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

/** The lock (or the takeover mark) could not be written, e.g. the disk is full. Nothing was left behind. */
export class LockWriteError extends StoreWriteError {
  constructor(
    readonly file: string,
    readonly code: string | undefined,
    options: { cause: unknown },
  ) {
    const [why, fix] = code === 'ENOSPC' ? ['the disk is full (ENOSPC)', 'free some space'] : [code ?? String(options.cause), 'check the state folder'];
    super(`cannot write the job lock ${file}: ${why}`, `${fix} and run again`, options);
    this.name = 'LockWriteError';
  }
}

/** The file writes of the lock, replaceable by a test (say, to fill the disk). */
export interface LockIo {
  /** Creates `file` (it does not exist) holding `data`, flushed to disk. */
  writeFile(file: string, data: string): Promise<void>;
  /** Waits between two looks at a lock being written or taken over. */
  sleep(ms: number): Promise<void>;
}

/** A lock that cannot be read (empty, torn) is taken as being written for this long, then taken over. */
const UNREADABLE_GRACE_MS = 5_000;
/** A takeover mark whose holder cannot be checked (another host, unreadable) is left alone this long. */
const UNCHECKABLE_TAKEOVER_MS = 10_000;
/** How long acquireLock waits, at most, on a lock being written or taken over before it refuses. */
const PATIENCE_MS = 8_000;
const POLL_MS = 25;
/** Rounds of place, read and take over before giving up: each one sees the lock change hands. */
const MAX_ROUNDS = 1_000;

/**
 * Takes the job lock. The lock file is written whole under a temporary name and linked into place,
 * so it appears complete or not at all (a full disk leaves nothing behind). A lock whose process is
 * alive on this host, or that lives on another host (it cannot be checked), refuses with LockedError
 * naming its pid. A lock left by a dead process, or unreadable and older than a few seconds, is
 * taken over at once; of several processes racing for it, one wins (see `takeOver`).
 */
export async function acquireLock(lockFile: string, info: LockInfo, io: Partial<LockIo> = {}): Promise<Lock> {
  const write = io.writeFile ?? writeNewFile;
  const wait = io.sleep ?? ((ms: number) => sleep(ms));
  const job = path.basename(path.dirname(lockFile));
  const owner: LockOwner = { pid: info.pid, host: info.host ?? hostname(), startedAt: info.startedAt, command: info.command, ...(info.jobFile !== undefined && { jobFile: info.jobFile }) };
  const content = JSON.stringify(owner) + '\n';
  await makePrivateDir(path.dirname(lockFile));
  const deadline = Date.now() + PATIENCE_MS;
  const fail: WriteFailed = (err) => new LockWriteError(lockFile, (err as NodeJS.ErrnoException).code, { cause: err });
  let tookOverFrom: number | undefined;

  for (let round = 0; ; round++) {
    if (round === MAX_ROUNDS) throw await lockedBy(job, lockFile);
    if (await place(lockFile, content, write, fail)) {
      await sweep(lockFile);
      return held(lockFile, content, tookOverFrom);
    }
    const found = await readLock(lockFile);
    if (found === undefined) continue; // released between the two: try again
    const { owner: holder, pid } = found;
    if (holder !== undefined && holder.host !== hostname()) {
      throw new LockedError(job, holder.pid, holder, `${describe(holder)}; that host cannot be checked from here`);
    }
    if (pid !== undefined && isProcessAlive(pid)) {
      throw new LockedError(job, pid, holder, holder ? describe(holder) : `pid ${pid} on host ${hostname()}, whose lock file ${lockFile} cannot be read`);
    }
    const age = Date.now() - found.mtimeMs;
    if (pid === undefined && age < UNREADABLE_GRACE_MS) {
      // Being written by a version of outreach that wrote locks in place: it is whole in a moment.
      if (Date.now() >= deadline) throw new LockedError(job, undefined, undefined, `another process is writing its lock ${lockFile} right now`);
      await wait(Math.min(UNREADABLE_GRACE_MS - age + POLL_MS, 250));
      continue;
    }
    // Stale. Whoever of the racers removes it, the one that then takes the lock took it over from pid.
    tookOverFrom = pid;
    const outcome = await takeOver(lockFile, found, write, fail);
    if (outcome.kind === 'busy') {
      if (Date.now() >= deadline) {
        throw new LockedError(job, outcome.pid, undefined, `${outcome.pid !== undefined ? `pid ${outcome.pid}` : 'another process'} is taking over its lock right now`);
      }
      await wait(POLL_MS);
    }
  }
}

/**
 * Who holds the lock now, read without taking it: the owner the lock file names when its process is
 * alive on this host, or when it lives on another host (which cannot be checked from here, and
 * `acquireLock` refuses it too). Undefined when there is no lock, or its process is dead (a stale
 * lock is not a run). A lock torn mid-write by a live process gives its pid alone.
 */
export async function lockHolder(lockFile: string): Promise<LockOwner | undefined> {
  const found = await readLock(lockFile);
  if (found === undefined) return undefined;
  const { owner, pid } = found;
  if (owner !== undefined && owner.host !== '' && owner.host !== hostname()) return owner;
  if (pid === undefined || !isProcessAlive(pid)) return undefined;
  return owner ?? { pid, host: hostname(), startedAt: '', command: '' };
}

export { isProcessAlive } from '../process-alive.js';

/** A short lock held longer than this is taken as left by a process that stopped; the work it guards lasts milliseconds. */
export const STALE_LOCK_MS = 30_000;
/** How long a process waits for a short lock before it gives up (a live holder keeps it milliseconds). */
const SHORT_PATIENCE_MS = 60_000;

export interface ShortLockOptions {
  /** Wall time (ms), for the stale timeout and the patience; tests may inject it. */
  wallClock?: () => number;
}

/**
 * Runs `work` while holding the short lock `lockFile`; `what` names what it guards, for people. A
 * process that finds it held waits and looks again; a lock whose process is gone (this host), or
 * older than STALE_LOCK_MS (another host, or a process stuck that long), is taken over.
 */
export async function withShortLock<T>(lockFile: string, what: string, work: () => Promise<T>, options: ShortLockOptions = {}): Promise<T> {
  const wall = options.wallClock ?? Date.now;
  const content = `${JSON.stringify({ pid: process.pid, host: hostname(), token: randomBytes(8).toString('hex') })}\n`;
  const fail: WriteFailed = (err) => storeWriteError(err, lockFile, `the lock of ${what}`);
  const deadline = wall() + SHORT_PATIENCE_MS;
  await makePrivateDir(path.dirname(lockFile)).catch((err: unknown) => {
    throw fail(err);
  });
  let tookOver = false;
  for (let round = 0; ; round++) {
    if (await place(lockFile, content, writeQuickly, fail)) {
      // What a process that died beside this lock left (its temporary files, its marks) goes with its lock.
      if (tookOver) await sweep(lockFile);
      break;
    }
    const found = await readLock(lockFile);
    if (found === undefined) continue; // released between the two: try again
    if (shortLockStale(found, wall) && (await takeOver(lockFile, found, writeQuickly, fail)).kind !== 'busy') {
      tookOver = true;
      continue;
    }
    if (wall() >= deadline) {
      throw new StoreWriteError(`could not take the lock ${lockFile} of ${what}: another process has held it for a minute`, `if no outreach process runs on this state folder, delete ${lockFile} and run again`);
    }
    await sleep(Math.min(50, 2 + round) + Math.random() * 5);
  }
  try {
    return await work();
  } finally {
    const now = await readLock(lockFile).catch(() => undefined);
    if (now?.text === content) await unlink(lockFile).catch(() => undefined);
  }
}

/** A short lock left by a process of this host that is gone, or held longer than any live holder keeps it. */
function shortLockStale(found: Found, wall: () => number): boolean {
  const host = found.owner?.host;
  if (found.pid !== undefined && (host === undefined || host === hostname()) && !isProcessAlive(found.pid)) return true;
  return wall() - found.mtimeMs > STALE_LOCK_MS;
}


/** A lock file as read: its text, its owner when whole, the pid it names (even torn), and which file it was. */
interface Found {
  text: string;
  owner?: LockOwner;
  pid?: number;
  mtimeMs: number;
  /** dev:ino:mtime:size: another file, or the same name rewritten, differs. */
  identity: string;
}

/** The error a lock that could not be written (its file, or a takeover mark) is told as. */
type WriteFailed = (err: unknown) => Error;

/**
 * Writes `content` to a temporary file and links it to `file`: true when it is in place, false when
 * `file` exists. The temporary file is removed whatever happens.
 */
async function place(file: string, content: string, write: LockIo['writeFile'], fail: WriteFailed): Promise<boolean> {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await write(temp, content);
    await link(temp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false; // from link: the temporary name is ours alone
    throw fail(err);
  } finally {
    await unlink(temp).catch(() => {});
  }
}

/** A job's lock file is flushed to disk: it is held for a whole run, and read after a crash. */
async function writeNewFile(file: string, data: string): Promise<void> {
  await writeLockFile(file, data, true);
}

/** A short lock's is not: after a crash it is stale whatever it holds. */
async function writeQuickly(file: string, data: string): Promise<void> {
  await writeLockFile(file, data, false);
}

async function writeLockFile(file: string, data: string, durable: boolean): Promise<void> {
  const handle = await openPrivate(file, 'wx');
  try {
    await handle.writeFile(data);
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
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

/** The lock file's text and identity, read through one handle (so both are of the same file); undefined when absent. */
async function readLock(lockFile: string): Promise<Found | undefined> {
  let handle;
  try {
    handle = await open(lockFile, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const [info, text] = await Promise.all([handle.stat(), handle.readFile('utf8')]);
    const owner = parseOwner(text);
    const pid = owner?.pid ?? pidIn(text);
    return {
      text,
      ...(owner && { owner }),
      ...(pid !== undefined && { pid }),
      mtimeMs: info.mtimeMs,
      identity: `${info.dev}:${info.ino}:${info.mtimeMs}:${info.size}`,
    };
  } finally {
    await handle.close();
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
      ...(typeof v.jobFile === 'string' && { jobFile: v.jobFile }),
    };
  } catch {
    return undefined;
  }
}

/** The pid a torn lock file of this host still names, if any. */
function pidIn(text: string): number | undefined {
  const host = /"host"\s*:\s*"([^"]*)"/.exec(text)?.[1];
  if (host !== undefined && host !== hostname()) return undefined;
  const pid = Number(/"pid"\s*:\s*(\d+)\s*[,}]/.exec(text)?.[1]);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

type TakeOver = { kind: 'removed' | 'changed' } | { kind: 'busy'; pid: number | undefined };

/**
 * Removes the stale lock `found` under a takeover mark named after that very file
 * (`<lock>.takeover-<id>-<n>`, placed like the lock): only the mark's holder deletes the lock, and
 * only while it is still that file, so no two processes can both delete it, nor one delete a lock
 * another just took. A mark whose holder died (or, on another host, that is old) is never cleared
 * in place, which two processes could both do: the next one, n + 1, is placed instead.
 */
async function takeOver(lockFile: string, found: Found, write: LockIo['writeFile'], fail: WriteFailed): Promise<TakeOver> {
  const id = createHash('sha256').update(`${found.identity}\n${found.text}`).digest('hex').slice(0, 16);
  const mark = JSON.stringify({ pid: process.pid, host: hostname() }) + '\n';
  for (let n = 0; ; n++) {
    const file = `${lockFile}.takeover-${id}-${n}`;
    if (await place(file, mark, write, fail)) {
      try {
        const now = await readLock(lockFile);
        if (now?.identity !== found.identity || now.text !== found.text) return { kind: 'changed' };
        await unlink(lockFile).catch(ignoreMissing);
        return { kind: 'removed' };
      } finally {
        for (let k = 0; k <= n; k++) await unlink(`${lockFile}.takeover-${id}-${k}`).catch(() => {});
      }
    }
    const holder = await readLock(file);
    if (holder === undefined) return { kind: 'changed' }; // that takeover just ended
    if (!isStaleMark(holder)) return { kind: 'busy', pid: holder.pid };
  }
}

/** A takeover mark left by a process that died, or that cannot be checked and is old. */
function isStaleMark(mark: Found): boolean {
  const host = mark.owner?.host;
  if (mark.pid !== undefined && (host === undefined || host === hostname())) return !isProcessAlive(mark.pid);
  return Date.now() - mark.mtimeMs > UNCHECKABLE_TAKEOVER_MS;
}

/**
 * Once the lock is ours: removes what crashed processes left beside it, takeover marks of dead or
 * old takeovers and temporary files of dead processes (a live process's files are left alone).
 */
async function sweep(lockFile: string): Promise<void> {
  const dir = path.dirname(lockFile);
  const base = path.basename(lockFile);
  const names = await readdir(dir).catch(() => []);
  for (const name of names) {
    if (!name.startsWith(`${base}.`)) continue;
    const full = path.join(dir, name);
    const temp = /^\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(base.length));
    if (temp !== null) {
      if (!isProcessAlive(Number(temp[1]))) await unlink(full).catch(() => {});
    } else if (name.startsWith(`${base}.takeover`)) {
      const mark = await readLock(full).catch(() => undefined);
      if (mark !== undefined && isStaleMark(mark)) await unlink(full).catch(() => {});
    }
  }
}

async function lockedBy(job: string, lockFile: string): Promise<LockedError> {
  const found = await readLock(lockFile);
  const detail = found?.owner ? describe(found.owner) : found?.pid !== undefined ? `pid ${found.pid} on host ${hostname()}` : 'another process holds the lock';
  return new LockedError(job, found?.pid, found?.owner, detail);
}

function describe(owner: LockOwner): string {
  const started = owner.startedAt ? `, started ${owner.startedAt}` : '';
  return `pid ${owner.pid} on host ${owner.host || 'unknown'}${started}`;
}

function ignoreMissing(err: unknown): void {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
}
