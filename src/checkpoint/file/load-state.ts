import { stat } from 'node:fs/promises';
import { applyEvent } from '../apply-event.js';
import { ColumnFold } from '../column-fold.js';
import { JournalBytes } from '../journal-bytes.js';
import { StateTable } from '../state-table.js';
import type { HeaderEvent } from '../types.js';
import { foldJournal, type FoldResult } from './fold-journal.js';
import { readSnapshot, writeSnapshot, type JournalPosition } from './snapshot.js';

/** A snapshot is written once this many bytes of journal came after the last one (about 3,500 contacts). */
export const SNAPSHOT_AFTER_BYTES = 1 << 20;

export interface LoadedState {
  state: StateTable;
  header: HeaderEvent | undefined;
  /** Where the fold ended: the whole journal as read. */
  position: JournalPosition;
  /** Bytes of journal read past the snapshot (all of it without one). */
  tailBytes: number;
  tornLineNumbers: number[];
  /** The inode of the journal read (undefined when there was none yet). */
  journalIno?: number;
}

/**
 * A job's state: its snapshot (when there is a usable one) and the journal's tail folded onto it, in
 * the memory of the state alone. `fromStart` ignores the snapshot (after the journal was rewritten).
 */
export async function loadState(journalFile: string, options: { fromStart?: boolean } = {}): Promise<LoadedState> {
  // Taken first: a journal replaced after this (a run compacting it) is not the one a snapshot may describe.
  const journalIno = await stat(journalFile).then(
    (s) => s.ino,
    () => undefined,
  );
  const snapshot = options.fromStart ? undefined : await readSnapshot(journalFile);
  let header = snapshot?.header;
  const start = snapshot?.position ?? { bytes: 0, lines: 0, events: 0 };
  // A whole journal (no snapshot) is folded straight into columns; a tail onto the snapshot's table.
  const onHeader = (event: HeaderEvent) => (header = event);
  let state: StateTable;
  let fold: FoldResult;
  if (snapshot) {
    state = snapshot.table;
    fold = await foldJournal(journalFile, { byte: start.bytes, line: start.lines }, (event) => applyEvent(snapshot.table, event), onHeader);
  } else {
    const whole = new ColumnFold();
    fold = await foldWhole(journalFile, whole, onHeader);
    state = whole.table();
  }
  return {
    state,
    header,
    position: { bytes: fold.endByte, lines: fold.endLine, events: start.events + fold.events },
    tailBytes: fold.endByte - start.bytes,
    tornLineNumbers: fold.tornLineNumbers,
    ...(journalIno !== undefined && { journalIno }),
  };
}

/**
 * A whole journal into `fold`: the common lines read straight from their bytes (journal-bytes.ts),
 * every other through the one parser and `ColumnFold.apply`.
 */
function foldWhole(journalFile: string, fold: ColumnFold, onHeader: (event: HeaderEvent) => void) {
  const bytes = new JournalBytes(fold);
  return foldJournal(journalFile, { byte: 0, line: 0 }, (event) => fold.apply(event), onHeader, (buf, start, end) => bytes.take(buf, start, end));
}

/**
 * Writes a snapshot when at least SNAPSHOT_AFTER_BYTES of journal came after the last one. A snapshot
 * is only a shortcut: when it cannot be written (a read-only folder, a full disk) the journal still
 * holds everything, so the failure is returned for a warning, never thrown.
 */
export async function snapshotIfDue(
  journalFile: string,
  loaded: Pick<LoadedState, 'state' | 'header' | 'position' | 'journalIno'>,
  sinceLast: number,
): Promise<{ written: boolean; problem?: string }> {
  if (sinceLast < SNAPSHOT_AFTER_BYTES) return { written: false };
  try {
    await writeSnapshot(journalFile, loaded.state, loaded.header, loaded.position, loaded.journalIno);
    return { written: true };
  } catch (err) {
    return { written: false, problem: `the snapshot of ${journalFile} could not be written (${err instanceof Error ? err.message : String(err)}); the journal holds everything` };
  }
}
