import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { applyEvent } from '../apply-event.js';
import { CountedStates, type SnapshotParts } from '../counted-states.js';
import { columnSpans, decodeSnapshotFrom, remapTallies, snapshotMeta, snapshotRest, snapshotTallies, type SnapshotMeta } from '../snapshot-codec.js';
import { allocColumns, COLUMN_NAMES, decodeRow } from '../state-columns.js';
import { attemptSplits, StateTable } from '../state-table.js';
import type { JobView } from '../store.js';
import type { ContactEvent, HeaderEvent } from '../types.js';
import { headBytes } from './binary-file.js';
import { foldJournal, foldJournalSync } from './fold-journal.js';
import { journalNotices } from './notices.js';
import { journalCheck, journalSize, snapshotFileOf, type JournalPosition } from './snapshot.js';

/**
 * A job read for counting (status): the snapshot's head and the journal's tail after it, the columns
 * left on disk until something asks for a state (counted-states.ts). Only for a snapshot that keeps its
 * counters and a CRC per column, and a tail shorter than `maxTail` bytes (a longer one is folded whole
 * by the caller, which then writes a newer snapshot); undefined otherwise.
 */
export async function readCounted(journalFile: string, maxTail: number): Promise<JobView | undefined> {
  let fd: number;
  try {
    fd = openSync(snapshotFileOf(journalFile), 'r');
  } catch {
    return undefined;
  }
  let kept = false;
  try {
    const size = fstatSync(fd).size;
    const meta = snapshotMeta(headBytes(fd, size)) as (SnapshotMeta & { position: JournalPosition; journalCheck: { head: number; tail: number } }) | undefined;
    const spans = meta && columnSpans(meta);
    const tallies = meta && snapshotTallies(meta);
    if (!meta || !spans || !tallies || !Array.isArray(meta.crcs) || !Array.isArray(meta.others)) return undefined;
    for (const name of COLUMN_NAMES) {
      const span = spans.get(name);
      if (!span || span.crc === undefined || span.bytes !== meta.rows * allocColumns(0)[name].BYTES_PER_ELEMENT || span.offset + span.bytes > size) return undefined;
    }
    if ((await journalSize(journalFile)) - meta.position.bytes >= maxTail) return undefined;
    const check = await journalCheck(journalFile, meta.position.bytes, undefined).catch(() => undefined);
    if (!check || check.head !== meta.journalCheck.head || check.tail !== meta.journalCheck.tail) return undefined;
    let header: HeaderEvent | undefined = meta.header ?? undefined;
    const tail: ContactEvent[] = [];
    const fold = await foldJournal(
      journalFile,
      { byte: meta.position.bytes, line: meta.position.lines },
      (event) => tail.push(event),
      (event) => (header = event),
    );
    const read = (position: number, target: Uint8Array) => {
      for (let done = 0; done < target.length; ) {
        const n = readSync(fd, target, done, target.length - done, position + done);
        if (n === 0) throw new Error('the snapshot ended early');
        done += n;
      }
    };
    let open = true;
    const close = () => {
      if (open) closeSync(fd);
      open = false;
      closer.unregister(parts);
    };
    /** A whole column, read and checked (throws when it does not check). */
    const column = <T extends ArrayBufferView>(name: (typeof COLUMN_NAMES)[number], make: (rows: number) => T): T => {
      const span = spans.get(name);
      const values = make(meta.rows);
      const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
      read(span?.offset ?? 0, bytes);
      if (crc32(bytes) !== span?.crc) throw new Error(`the snapshot's ${name} column does not check`);
      return values;
    };
    let restTexts: string[] | undefined;
    /** The rest texts, read once (throws when they do not check). */
    const rest = (): string[] => {
      restTexts ??= snapshotRest(meta, size, read);
      if (!restTexts) throw new Error('the snapshot\'s rest texts do not check');
      return restTexts;
    };
    const parts: SnapshotParts = {
      rows: meta.rows,
      tallies,
      others: meta.others,
      phones: () => column('phone', (n) => new Float64Array(n)),
      *phoneParts() {
        const span = spans.get('phone');
        const part = new Float64Array(Math.min(PART_ROWS, meta.rows));
        let crc = 0;
        for (let row = 0; row < meta.rows; row += part.length) {
          const piece = part.subarray(0, Math.min(part.length, meta.rows - row));
          const bytes = new Uint8Array(piece.buffer, 0, piece.byteLength);
          read((span?.offset ?? 0) + row * 8, bytes);
          crc = crc32(bytes, crc);
          yield piece;
        }
        if (crc !== span?.crc) throw new Error("the snapshot's phone column does not check");
      },
      statesAt(rows) {
        const columns = allocColumns(rows.length);
        for (const name of COLUMN_NAMES) {
          const column = columns[name];
          const width = column.BYTES_PER_ELEMENT;
          const offset = spans.get(name)?.offset ?? 0;
          rows.forEach((row, i) => read(offset + row * width, new Uint8Array(column.buffer, i * width, width)));
        }
        if (tallies.ids) remapTallies(columns.tally, rows.length, tallies.ids);
        const texts = rest();
        return rows.map((_, i) => ({ state: decodeRow(columns, i, texts), tally: columns.tally[i] ?? 0 }));
      },
      attemptSplits(since, skip) {
        const tally = column('tally', (n) => new Uint32Array(n));
        if (tallies.ids) remapTallies(tally, meta.rows, tallies.ids);
        return attemptSplits(tallies.keys, { tally, rest: column('rest', (n) => new Uint32Array(n)) }, meta.rows, rest(), since, (row) => skip.has(row));
      },
      table() {
        try {
          return decodeSnapshotFrom(meta, size, read)?.table;
        } catch {
          return undefined;
        } finally {
          close();
        }
      },
    };
    const fromJournal = () => {
      close();
      const table = new StateTable();
      foldJournalSync(journalFile, (event) => applyEvent(table, event), () => undefined);
      return table;
    };
    let states: CountedStates;
    try {
      states = new CountedStates(parts, tail, fromJournal);
    } catch {
      return undefined;
    }
    // The file stays open for the states read later; closed once read whole, or when the view is collected.
    closer.register(parts, fd, parts);
    kept = true;
    return { header, states, notices: journalNotices(journalFile, fold.tornLineNumbers) };
  } catch {
    return undefined;
  } finally {
    if (!kept) closeSync(fd);
  }
}

/** Rows of a column read at once when it is read part by part (512 KB of phones). */
const PART_ROWS = 1 << 16;

const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});
