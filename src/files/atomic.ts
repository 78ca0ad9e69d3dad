/**
 * The one way a file is replaced whole: a reader sees the old content or the new, never a mix, and a
 * crash or a power cut leaves one of the two. The content goes to a temporary file beside it, which is
 * fsync'd and renamed over it, then the folder is fsync'd (the rename survives a power cut). The file
 * is private (0600) and the folders made for it 0700. The temporary name is unique per write (the pid,
 * a counter of this process and random bytes), so two writes of the same file at once, by one process
 * or two, never share it: the last rename wins, whole. A failed write leaves the old file and no
 * temporary one. One file is written for another user's reader (node_exporter's textfile, no personal
 * data): `forOthers`, 0644, into a folder that must be there already.
 */
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir } from './fsync-dir.js';
import { makePrivateDir, openPrivate } from './private.js';

export type AtomicContent = string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

export interface AtomicOptions {
  /**
   * The file is read by another user (node_exporter's textfile collector) and holds no personal data:
   * 0644 whatever the umask, and its folder is not made (one made 0700 would hide it from that user):
   * a missing folder fails the write (ENOENT).
   */
  forOthers?: boolean;
  /** Checks the written temporary file (its name given) before it replaces `file`; a throw leaves `file` as it was. */
  check?: (temp: string) => Promise<void>;
}

/** The mode of the one file written for others to read. */
const OTHERS_MODE = 0o644;

let writes = 0;

/** A temporary name beside `file`, hidden, never the same twice. */
function tempBeside(file: string): string {
  writes += 1;
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${writes}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Removes the temporary files that writes of `file` left when their process died mid-write (`alive`
 * tells a live pid; a live process's write is going on), and those of an earlier version
 * (`<file>.<pid>.tmp`).
 */
export async function removeDeadTemps(file: string, alive: (pid: number) => boolean): Promise<void> {
  const dir = path.dirname(file);
  const base = path.basename(file);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const match = name.startsWith(`.${base}.`) ? /^(\d+)\.\d+\.[0-9a-f]+\.tmp$/.exec(name.slice(base.length + 2)) : name.startsWith(`${base}.`) ? /^(\d+)\.tmp$/.exec(name.slice(base.length + 1)) : null;
    const pid = Number(match?.[1]);
    if (match !== null && Number.isSafeInteger(pid) && pid > 0 && !alive(pid)) await unlink(path.join(dir, name)).catch(() => undefined);
  }
}

/**
 * Replaces `file` with `content`: text or bytes, or pieces of them (each written before the next is
 * asked for, so a writer may reuse its buffer; an async source streams without holding it whole).
 */
export async function writeFileAtomic(file: string, content: AtomicContent, options: AtomicOptions = {}): Promise<void> {
  const dir = path.dirname(file);
  if (options.forOthers !== true) await makePrivateDir(dir);
  const temp = tempBeside(file);
  let handle: FileHandle | undefined;
  try {
    handle = options.forOthers === true ? await openForOthers(temp) : await openPrivate(temp, 'w');
    await writeAll(handle, content);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await options.check?.(temp);
    await rename(temp, file);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await fsyncDir(dir);
}

/** A new file others may read: 0644 exactly (a umask may take bits away). */
async function openForOthers(temp: string): Promise<FileHandle> {
  const handle = await open(temp, 'wx', OTHERS_MODE);
  try {
    await handle.chmod(OTHERS_MODE);
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  return handle;
}

async function writeAll(handle: FileHandle, content: AtomicContent): Promise<void> {
  if (typeof content === 'string' || content instanceof Uint8Array) return handle.writeFile(content);
  if (Symbol.iterator in content) {
    for (const piece of content) await handle.writeFile(piece);
    return;
  }
  // Small pieces (a JSON report's rows) are gathered into writes of about 64 KB: no system call per row.
  let pending: Array<string | Uint8Array> = [];
  let size = 0;
  for await (const piece of content) {
    pending.push(piece);
    size += piece.length;
    if (size >= 1 << 16) {
      await handle.writeFile(join(pending));
      pending = [];
      size = 0;
    }
  }
  if (pending.length > 0) await handle.writeFile(join(pending));
}

function join(pieces: ReadonlyArray<string | Uint8Array>): string | Uint8Array {
  if (pieces.every((p): p is string => typeof p === 'string')) return pieces.join('');
  return Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}
