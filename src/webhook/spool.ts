/**
 * The receiver's spool: the events it answered 200 for but could not record in the store (down, or
 * not answering within the receiver's budget), kept on this machine's disk until the store is back.
 *
 * A folder of JSON-lines segments (`0000000001.jsonl`, `0000000002.jsonl`, …), one event a line as
 * the store records it (the message with its attribution: phone, number, company). A line is
 * appended and fdatasync'd before `append` resolves (appends made meanwhile share one write); a new
 * segment's name is made durable (the folder fsync'd) before its first line counts. The files are
 * 0600 and the folder 0700 (files/private.ts).
 *
 * What the receiver applied it `release`s: a segment whose every line is applied is deleted, and the
 * last one once nothing is left. A crash re-applies at most what was applied of the segments still
 * there, which changes nothing (an event is recorded once by message id, a window keeps the later
 * time, an opt-out or opt-in goes by its message's time). After a restart, and after a failed write,
 * lines go to a new segment: a line torn by a crash is never glued to the next one. At opening such a
 * line (or any line that is not an event) is skipped and reported (`skipped`). One receiver at a
 * time uses a folder (spool-owner.ts).
 */
import { readdir, readFile, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { parseEventLine, type RecordedEvent } from '../checkpoint/index.js';
import { fsyncDir } from '../files/fsync-dir.js';
import { makePrivateDir, openPrivate } from '../files/private.js';
import { takeSpoolFolder } from './spool-owner.js';

/** A segment takes about this many lines before the next one starts (what a crash may re-apply). */
export const SEGMENT_LINES = 1_000;

const SEGMENT_NAME = /^(\d{10})\.jsonl$/;

/** A line of the spool that could not be read back: torn by a crash mid-write, or not an event. */
export interface SkippedLine {
  /** The segment's path. */
  file: string;
  /** 1-based. */
  line: number;
  reason: 'torn' | 'not_an_event';
  /** The message id, when the line still shows one (`outreach sync` recovers the message from the platform). */
  messageId?: string;
}

export interface Spool {
  readonly dir: string;
  /** Events kept and not yet released, appends under way included. */
  readonly size: number;
  /** Whether an event of this message id is kept (or being appended). */
  has(messageId: string): boolean;
  /** Keeps the event; durable (on disk, fdatasync'd) when it resolves. */
  append(event: RecordedEvent): Promise<void>;
  /** Up to `max` of the oldest events kept (those on disk), in the order they were appended. */
  peek(max: number): RecordedEvent[];
  /** The first `count` events `peek` gave are applied: forgotten, and the segments wholly applied deleted. */
  release(count: number): Promise<void>;
  /** Resolves once the appends and deletions under way are done. */
  idle(): Promise<void>;
  /** Lets the open segment go; what is kept stays on disk for the next opening. */
  close(): Promise<void>;
}

interface Kept {
  event: RecordedEvent;
  segment: number;
}

interface Waiter {
  event: RecordedEvent;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Opens (making it when missing) the spool folder `dir` and reads what an earlier process left in it. */
export async function openSpool(dir: string, options: { segmentLines?: number } = {}): Promise<{ spool: Spool; skipped: SkippedLine[] }> {
  const segmentLines = options.segmentLines ?? SEGMENT_LINES;
  await makePrivateDir(dir);
  const letGo = await takeSpoolFolder(dir);
  const kept: Kept[] = [];
  const skipped: SkippedLine[] = [];
  /** Lines not yet released, by segment (segments on disk only). */
  const remaining = new Map<number, number>();
  const ids = new Map<string, number>();
  let next = 1;
  try {
    for (const name of (await readdir(dir)).filter((n) => SEGMENT_NAME.test(n)).sort()) {
      const segment = Number(name.slice(0, 10));
      next = Math.max(next, segment + 1);
      remaining.set(segment, 0);
      const file = path.join(dir, name);
      const lines = (await readFile(file, 'utf8')).split('\n');
      const tail = lines.pop() ?? '';
      lines.forEach((text, i) => {
        if (text.trim() === '') return;
        const event = parseEventLine(text);
        if (event === undefined) return void skipped.push(skippedLine(file, i + 1, 'not_an_event', text));
        kept.push({ event, segment });
        remaining.set(segment, (remaining.get(segment) ?? 0) + 1);
      });
      // The last line has no newline: a write cut short (the receiver never answered 200 for it).
      if (tail.trim() !== '') skipped.push(skippedLine(file, lines.length + 1, 'torn', tail));
    }
  } catch (err) {
    await letGo();
    throw err;
  }
  for (const { event } of kept) ids.set(event.message_id, (ids.get(event.message_id) ?? 0) + 1);

  let current: { segment: number; handle: FileHandle; lines: number } | undefined;
  let queue: Waiter[] = [];
  let appending = 0;
  let chain: Promise<unknown> = Promise.resolve();
  const serially = <T>(body: () => Promise<T>): Promise<T> => {
    const run = chain.then(body);
    chain = run.catch(() => undefined);
    return run;
  };
  const segmentFile = (segment: number) => path.join(dir, `${String(segment).padStart(10, '0')}.jsonl`);

  async function closeCurrent(): Promise<void> {
    const open = current;
    current = undefined;
    await open?.handle.close().catch(() => undefined);
  }

  /** Deletes the segments with nothing left to apply (the open one only when nothing at all is left). */
  async function deleteApplied(): Promise<void> {
    const empty = [...remaining].filter(([segment, left]) => left === 0 && (segment !== current?.segment || (kept.length === 0 && appending === 0)));
    if (empty.length === 0) return;
    if (empty.some(([segment]) => segment === current?.segment)) await closeCurrent();
    for (const [segment] of empty) {
      await unlink(segmentFile(segment)).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      });
      remaining.delete(segment);
    }
    await fsyncDir(dir);
  }

  /** The segment the next lines go to: a new one after `segmentLines` lines (its name made durable first). */
  async function segmentForWrite(): Promise<NonNullable<typeof current>> {
    if (current !== undefined && current.lines < segmentLines) return current;
    if (current !== undefined) {
      await closeCurrent();
      await deleteApplied();
    }
    for (;;) {
      const segment = next++;
      try {
        const handle = await openPrivate(segmentFile(segment), 'wx');
        await fsyncDir(dir);
        current = { segment, handle, lines: 0 };
        remaining.set(segment, 0);
        return current;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
  }

  async function writeQueued(): Promise<void> {
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    try {
      const target = await segmentForWrite();
      try {
        await target.handle.write(batch.map((w) => `${JSON.stringify(w.event)}\n`).join(''));
        await target.handle.datasync();
      } catch (err) {
        // What reached the file may be part of a line: the next lines start a new segment.
        await closeCurrent();
        throw err;
      }
      target.lines += batch.length;
      remaining.set(target.segment, (remaining.get(target.segment) ?? 0) + batch.length);
      for (const w of batch) kept.push({ event: w.event, segment: target.segment });
      for (const w of batch) w.resolve();
    } catch (err) {
      for (const w of batch) {
        forget(w.event.message_id);
        w.reject(err);
      }
    } finally {
      appending -= batch.length;
    }
  }

  function forget(messageId: string): void {
    const n = (ids.get(messageId) ?? 0) - 1;
    if (n > 0) ids.set(messageId, n);
    else ids.delete(messageId);
  }

  const spool: Spool = {
    dir,
    get size() {
      return kept.length + appending;
    },
    has: (messageId) => ids.has(messageId),
    append(event) {
      appending += 1;
      ids.set(event.message_id, (ids.get(event.message_id) ?? 0) + 1);
      return new Promise<void>((resolve, reject) => {
        queue.push({ event, resolve, reject });
        void serially(writeQueued);
      });
    },
    peek: (max) => kept.slice(0, max).map((k) => k.event),
    release(count) {
      return serially(async () => {
        for (const { event, segment } of kept.splice(0, count)) {
          forget(event.message_id);
          remaining.set(segment, (remaining.get(segment) ?? 1) - 1);
        }
        await deleteApplied();
      });
    },
    idle: () => serially(async () => undefined),
    close: () =>
      serially(async () => {
        await closeCurrent();
        await letGo();
      }),
  };
  // Segments holding only lines that could not be read (reported above) go now.
  await serially(deleteApplied);
  return { spool, skipped };
}

function skippedLine(file: string, line: number, reason: SkippedLine['reason'], text: string): SkippedLine {
  const messageId = /"message_id":"([^"]+)"/.exec(text)?.[1];
  return { file, line, reason, ...(messageId !== undefined && { messageId }) };
}
