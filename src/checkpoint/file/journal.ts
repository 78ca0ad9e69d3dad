import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { openPrivate } from '../../files/private.js';
import { fsyncDir } from '../../files/fsync-dir.js';
import type { CheckpointEvent } from '../types.js';
import { StoreWriteError } from '../errors.js';

/** The part of a file handle the journal uses; tests inject one to count or fail writes. */
export type JournalFile = Pick<FileHandle, 'write' | 'datasync' | 'close'>;

export interface JournalOptions {
  /** Opens `file` for appending. Default: `fs.open(file, 'a')`, a private file (0600). */
  openFile?: (file: string) => Promise<JournalFile>;
}

export interface JournalStats {
  /** Events handed to `append` / `appendMany` and written. */
  appends: number;
  /** write + fsync rounds: with group commit, far fewer than appends under load. */
  flushes: number;
  /** The most events one flush carried. */
  largestBatch: number;
  bytes: number;
}

export interface Journal {
  readonly file: string;
  /** Resolves once the event's line is written and fsync'd. Appends made meanwhile share the next flush. */
  append(event: CheckpointEvent): Promise<void>;
  /** Several events in one line group, one flush; resolves once all are durable. */
  appendMany(events: readonly CheckpointEvent[]): Promise<void>;
  /** Flushes what is queued, then closes the file. Later appends reject. */
  close(): Promise<void>;
  stats(): JournalStats;
  /** Bytes written so far (stats().bytes without the copy: asked after every record). */
  bytes(): number;
}

interface Waiter {
  count: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** An error of the disk under the journal: every waiting and later append rejects with it. */
export class JournalWriteError extends StoreWriteError {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`could not write the checkpoint ${file}: ${(cause as Error).message ?? String(cause)}`, 'make room or fix the folder', { cause });
    this.name = 'JournalWriteError';
  }
}

/**
 * Opens (creating) an append-only JSON-lines journal with group commit: one write + fsync is in
 * flight at a time, and every append arriving meanwhile joins the next one.
 * After a failed write or fsync the journal refuses further appends (what reached the disk is
 * unknown, and retrying an fsync can report success for lost data).
 */
export async function openJournal(file: string, options: JournalOptions = {}): Promise<Journal> {
  const existed = await repairTornEnd(file);
  const handle = await (options.openFile ?? defaultOpen)(file);
  if (!existed) await fsyncDir(path.dirname(file));

  const stats: JournalStats = { appends: 0, flushes: 0, largestBatch: 0, bytes: 0 };
  let queue: string[] = [];
  let waiters: Waiter[] = [];
  let flushing: Promise<void> | undefined;
  let broken: JournalWriteError | undefined;
  let closing: Promise<void> | undefined;

  async function drain(): Promise<void> {
    while (queue.length > 0 && !broken) {
      const data = Buffer.from(queue.length === 1 ? (queue[0] as string) : queue.join(''), 'utf8');
      const batch = waiters;
      queue = [];
      waiters = [];
      try {
        await writeAll(handle, data);
        await handle.datasync();
      } catch (err) {
        broken = new JournalWriteError(file, err);
        for (const w of [...batch, ...waiters]) w.reject(broken);
        queue = [];
        waiters = [];
        break;
      }
      const events = batch.reduce((n, w) => n + w.count, 0);
      stats.flushes += 1;
      stats.appends += events;
      stats.bytes += data.length;
      stats.largestBatch = Math.max(stats.largestBatch, events);
      for (const w of batch) w.resolve();
    }
    flushing = undefined;
  }

  function enqueue(events: readonly CheckpointEvent[]): Promise<void> {
    if (broken) return Promise.reject(broken);
    if (closing) return Promise.reject(new Error(`the checkpoint ${file} is closed`));
    if (events.length === 0) return Promise.resolve();
    let text = '';
    try {
      for (const e of events) text += JSON.stringify(e) + '\n';
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return queued(text, events.length);
  }

  /** One event (a run's every record): as enqueue([event]), without the array. */
  function enqueueOne(event: CheckpointEvent): Promise<void> {
    if (broken) return Promise.reject(broken);
    if (closing) return Promise.reject(new Error(`the checkpoint ${file} is closed`));
    let text: string;
    try {
      text = JSON.stringify(event) + '\n';
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return queued(text, 1);
  }

  function queued(text: string, count: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      queue.push(text);
      waiters.push({ count, resolve, reject });
      // Started on a microtask, so the appends of the current tick share the first flush too.
      flushing ??= Promise.resolve().then(drain);
    });
  }

  return {
    file,
    append: enqueueOne,
    appendMany: (events) => enqueue(events),
    stats: () => ({ ...stats }),
    bytes: () => stats.bytes,
    close() {
      closing ??= (async () => {
        while (flushing) await flushing;
        await handle.close();
      })();
      return closing;
    },
  };
}

function defaultOpen(file: string): Promise<JournalFile> {
  return openPrivate(file, 'a');
}

async function writeAll(handle: JournalFile, data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset);
    offset += bytesWritten;
  }
}

/**
 * A power cut can leave half a line at the end. Appending right after it would glue the next
 * event onto the fragment and lose both, so the fragment is closed with a newline first
 * (replay then skips it as one torn line). Returns whether the file existed.
 */
async function repairTornEnd(file: string): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r+');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] !== 0x0a) {
      await handle.write('\n', size);
      await handle.datasync();
    }
    return true;
  } finally {
    await handle.close();
  }
}
