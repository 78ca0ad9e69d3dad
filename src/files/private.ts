/**
 * Files only their owner reads. Every file the tool writes holds people's data (phones, names,
 * messages), so each is 0600 and each folder it makes 0700, whatever the umask: a new file is
 * created with that mode and set to it exactly (a umask may only take bits away, never add them),
 * and a file that was already there (written by an older version, or by hand) is set to it when it
 * is opened for writing. A folder that already exists is left as it is: it may be the user's own
 * (`--state-dir .`). Every writer in src/ makes its files and folders through here.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { chmod, mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;

/** The folders `mkdir -p` made: from the first one it created down to `dir`. */
function madeBetween(first: string, dir: string): string[] {
  const made: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    made.push(d);
    if (d === path.resolve(first) || d === path.dirname(d)) break;
  }
  return made.reverse();
}

/** Makes `dir` and its missing parents, each one it makes 0700. */
export async function makePrivateDir(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: DIR_MODE });
  if (first !== undefined) for (const made of madeBetween(first, dir)) await chmod(made, DIR_MODE);
}

/** `makePrivateDir`, synchronously (a logger set up before anything is awaited). */
export function makePrivateDirSync(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  if (first !== undefined) for (const made of madeBetween(first, dir)) chmodSync(made, DIR_MODE);
}

/** Whether a mode is a regular file's that others (or the umask) left other than 0600. */
function needsMode(mode: number): boolean {
  return (mode & S_IFMT) === S_IFREG && (mode & 0o777) !== FILE_MODE;
}

/** A file we may not change the mode of (another user's, opened because it lets us write) is written as it is. */
function notOurs(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EPERM' || code === 'EACCES';
}

/** Sets an open file to 0600 when it is a regular file with another mode (a device such as /dev/stdout is left alone). */
export async function keepPrivate(handle: FileHandle): Promise<void> {
  const { mode } = await handle.stat();
  if (needsMode(mode)) await handle.chmod(FILE_MODE).catch((err: unknown) => {
    if (!notOurs(err)) throw err;
  });
}

/**
 * Opens `file` to write it (`flags` as fs.open's: 'a', 'a+', 'w', 'wx', 'r+'): a new file is 0600,
 * and one that was there already is made 0600.
 */
export async function openPrivate(file: string, flags: string): Promise<FileHandle> {
  const handle = await open(file, flags, FILE_MODE);
  try {
    await keepPrivate(handle);
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  return handle;
}

/** Writes (or with flag 'a', appends) `data` to `file` as a private file. */
export async function writePrivateFile(file: string, data: string | Uint8Array, flag: 'w' | 'a' = 'w'): Promise<void> {
  const handle = await openPrivate(file, flag);
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
}

/**
 * Before a file is opened by a writer of its own (pino's, which creates it with FILE_MODE): its
 * folder made private when missing, and the file, when it is already there, made 0600.
 */
export function preparePrivateFileSync(file: string): void {
  makePrivateDirSync(path.dirname(file));
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch {
    return; // not there yet: the writer creates it 0600
  }
  if (!needsMode(mode)) return;
  try {
    chmodSync(file, FILE_MODE);
  } catch (err) {
    if (!notOurs(err)) throw err;
  }
}
