/**
 * An append-only JSON-lines file shared by every process of a state folder (the suppression list,
 * the ledger), read incrementally:
 *
 * - `append` writes its lines in one write call, then fdatasync: durable when it resolves. Appends
 *   made while one is being written share the next write (group commit).
 * - `catchUp` reads only what was appended since the last call (anyone's lines, ours included), and
 *   only complete lines: a torn last line (a crash mid-write) is never read, and the next append
 *   starts on a new line so it is never glued to the fragment.
 * - No file handle stays open between calls, so the store needs no close.
 */
import { open, stat } from 'node:fs/promises';
import { makePrivateDir, openPrivate } from '../../files/private.js';
import path from 'node:path';
import { fsyncDir } from '../../files/fsync-dir.js';
import { scanCompleteLines } from './scan-lines.js';
import { stateFileError, storeWriteError } from './state-file-error.js';


export interface JsonlFile {
  readonly file: string;
  /**
   * Calls `onLine` for each complete line appended since the last call. When the file was replaced
   * by a shorter one, `onReset` is called first and the whole file is read again.
   */
  catchUp(onLine: (line: string) => void, onReset?: () => void): Promise<void>;
  /** Appends one line per value (JSON); resolves once they are on disk, rejects with a StoreWriteError when they may not be. */
  append(values: readonly unknown[]): Promise<void>;
}

interface Waiter {
  text: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** `what` names the file for people in a write error ("the ledger"). */
export function jsonlFile(file: string, what: string): JsonlFile {
  /** Bytes read so far, always just after a newline (or 0). */
  let offset = 0;
  let reads: Promise<void> = Promise.resolve();
  let queue: Waiter[] = [];
  let writing: Promise<void> | undefined;
  /** The file's size right after our last write, which ended with a newline: at that size no read of the last byte is needed. */
  let leftAt = -1;

  async function readNew(onLine: (line: string) => void, onReset?: () => void): Promise<void> {
    let size: number;
    try {
      size = (await stat(file)).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    if (size < offset) {
      offset = 0;
      onReset?.();
    }
    if (size <= offset) return;
    const handle = await open(file, 'r');
    try {
      offset = await scanCompleteLines(handle, offset, size, onLine);
    } finally {
      await handle.close();
    }
  }

  async function writeQueued(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        const handle = await openForAppend(file);
        try {
          const { size } = await handle.stat();
          let text = batch.length === 1 && batch[0] ? batch[0].text : batch.map((w) => w.text).join('');
          // Another process may have appended since our last write: its last line may be torn (it crashed mid-write).
          if (size > 0 && size !== leftAt) {
            const last = Buffer.alloc(1);
            await handle.read(last, 0, 1, size - 1);
            if (last[0] !== 0x0a) text = `\n${text}`;
          }
          const bytes = Buffer.from(text, 'utf8');
          for (let at = 0; at < bytes.length; ) at += (await handle.write(bytes, at)).bytesWritten;
          await handle.datasync();
          leftAt = size + bytes.length;
          if (size === 0) await fsyncDir(path.dirname(file));
        } finally {
          await handle.close();
        }
        for (const w of batch) w.resolve();
      } catch (err) {
        const failure = storeWriteError(err, file, what);
        for (const w of batch) w.reject(failure);
      }
    }
    writing = undefined;
  }

  return {
    file,
    catchUp(onLine, onReset) {
      // One reader at a time: two overlapping reads would both fold the same lines.
      const run = reads.then(() =>
        readNew(onLine, onReset).catch((err: unknown) => {
          throw stateFileError(err, file);
        }),
      );
      reads = run.catch(() => undefined);
      return run;
    },
    append(values) {
      if (values.length === 0) return Promise.resolve();
      let text: string;
      try {
        text = values.map((v) => `${JSON.stringify(v)}\n`).join('');
      } catch (err) {
        return Promise.reject(err as Error);
      }
      return new Promise<void>((resolve, reject) => {
        queue.push({ text, resolve, reject });
        writing ??= Promise.resolve().then(writeQueued);
      });
    },
  };
}

/** Opens the file to append, making its folder only when it is missing (the first write of a new state folder). */
async function openForAppend(file: string) {
  try {
    return await openPrivate(file, 'a+');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await makePrivateDir(path.dirname(file));
    return await openPrivate(file, 'a+');
  }
}

export { parseLine } from '../json-line.js';
