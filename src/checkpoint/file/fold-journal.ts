import { closeSync, openSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { CheckpointEvent, ContactEvent, HeaderEvent } from '../types.js';
import { JournalVersionError, parseEvent } from './read-journal.js';

export interface FoldResult {
  /** The byte just after the last line read (the next fold starts there). */
  endByte: number;
  /** Lines read in all, counting from the start of the file (so later torn lines keep their numbers). */
  endLine: number;
  /** Contact events folded. */
  events: number;
  /** 1-based numbers of the lines that were not a readable event (a torn write), skipped. */
  tornLineNumbers: number[];
}

/** Bytes read at a time. */
const CHUNK = 1 << 20;

/**
 * A reader that folds a line straight from its bytes (journal-bytes.ts) when it can: true when it took
 * the line as a contact event, false (nothing folded) for the general path to read it.
 */
export type LineFold = (buf: Buffer, start: number, end: number) => boolean;

/**
 * Reads a journal from byte `fromByte` (a line start; `fromLine` lines come before it) to its end,
 * handing each event to `onHeader` or `onEvent` as it is read: no list of events is kept, so a
 * journal of millions of events folds in the memory of its state. A missing file reads as empty.
 * A last line without its newline is read when it is a whole event (the fold then ends at the end
 * of the file) and counted as torn otherwise.
 */
export async function foldJournal(
  file: string,
  from: { byte: number; line: number },
  onEvent: (event: ContactEvent) => void,
  onHeader: (event: HeaderEvent) => void,
  fast?: LineFold,
): Promise<FoldResult> {
  const out: FoldResult = { endByte: from.byte, endLine: from.line, events: 0, tornLineNumbers: [] };
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err;
  }
  let carry: Buffer | undefined;
  /** The read under way. */
  let next: Promise<Buffer> | undefined;
  const take = eventTaker(file, out, onEvent, onHeader);
  const line = (buf: Buffer, start: number, end: number) => {
    out.endLine += 1;
    if (end > start) {
      if (fast !== undefined && fast(buf, start, end)) out.events += 1;
      else if (!isBlank(buf, start, end)) take(parseEvent(buf.toString('utf8', start, end)));
    }
    out.endByte += end + 1 - start;
  };
  try {
    // Two buffers read into in turn (no garbage of a chunk a read): the next chunk is read while this
    // one is folded. The line begun at a chunk's end is copied out before its buffer is read into again.
    let reading = Buffer.allocUnsafe(CHUNK);
    let spare = Buffer.allocUnsafe(CHUNK);
    let position = from.byte;
    const readInto = (buffer: Buffer) =>
      handle.read(buffer, 0, CHUNK, position).then(({ bytesRead }) => {
        position += bytesRead;
        return buffer.subarray(0, bytesRead);
      });
    next = readInto(reading);
    for (;;) {
      const chunk = await next;
      if (chunk.length === 0) break;
      [reading, spare] = [spare, reading];
      next = readInto(reading);
      let start = 0;
      if (carry) {
        // Only the line begun in the last chunk is joined, not the whole chunk copied.
        const nl = chunk.indexOf(0x0a);
        if (nl === -1) {
          carry = Buffer.concat([carry, chunk]);
          continue;
        }
        const joined = Buffer.concat([carry, chunk.subarray(0, nl + 1)]);
        line(joined, 0, joined.length - 1);
        start = nl + 1;
      }
      for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        line(chunk, start, nl);
        start = nl + 1;
      }
      carry = start < chunk.length ? Buffer.from(chunk.subarray(start)) : undefined;
    }
  } finally {
    // A read left under way (the fold threw) ends before the file is closed, whatever it gave.
    await next?.catch(() => undefined);
    await handle.close();
  }
  if (carry && !isBlank(carry, 0, carry.length)) {
    // A last line without its newline: an event written whole but for its newline is read; a fragment is torn.
    out.endLine += 1;
    const event = parseEvent(carry.toString('utf8'));
    take(event);
    if (event !== undefined) out.endByte += carry.length;
  }
  return out;
}

/**
 * The same fold read synchronously from the start of the journal: for a reader that found its snapshot
 * damaged only when asked for a state (a call that cannot wait). A missing file reads as empty.
 */
export function foldJournalSync(file: string, onEvent: (event: ContactEvent) => void, onHeader: (event: HeaderEvent) => void): FoldResult {
  const out: FoldResult = { endByte: 0, endLine: 0, events: 0, tornLineNumbers: [] };
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err;
  }
  const take = eventTaker(file, out, onEvent, onHeader);
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let carry: Buffer | undefined;
    for (let position = 0; ; ) {
      const n = readSync(fd, chunk, 0, CHUNK, position);
      if (n === 0) break;
      position += n;
      const buf = carry ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let start = 0;
      for (let nl = buf.indexOf(0x0a, start); nl !== -1; nl = buf.indexOf(0x0a, start)) {
        out.endLine += 1;
        if (nl > start && !isBlank(buf, start, nl)) take(parseEvent(buf.toString('utf8', start, nl)));
        out.endByte += nl + 1 - start;
        start = nl + 1;
      }
      carry = start < buf.length ? Buffer.from(buf.subarray(start)) : undefined;
    }
    if (carry && !isBlank(carry, 0, carry.length)) {
      out.endLine += 1;
      const event = parseEvent(carry.toString('utf8'));
      take(event);
      if (event !== undefined) out.endByte += carry.length;
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = buf[i];
    if (b !== 0x20 && b !== 0x0d && b !== 0x09) return false;
  }
  return true;
}

/** Takes one parsed line into `out`: a torn line noted by its number, the header checked and passed on, an event counted and folded. */
function eventTaker(file: string, out: FoldResult, onEvent: (event: ContactEvent) => void, onHeader: (event: HeaderEvent) => void) {
  return (event: CheckpointEvent | undefined): void => {
    if (event === undefined) out.tornLineNumbers.push(out.endLine);
    else if (event.t === 'header') {
      if (event.v !== 1) throw new JournalVersionError(file, event.v);
      onHeader(event);
    } else {
      out.events += 1;
      onEvent(event);
    }
  };
}
