import path from 'node:path';
import { applyEvent } from '../apply-event.js';
import type { StateTable } from '../state-table.js';
import type { CheckpointEvent, HeaderEvent } from '../types.js';
import { compactJournal, shouldCompact, type CompactionResult } from './compact.js';
import { openJournal, type JournalOptions, type JournalStats } from './journal.js';
import { loadState, snapshotIfDue, type LoadedState } from './load-state.js';
import { ensureDir } from './paths.js';
import { journalSize } from './snapshot.js';

/** While a run goes, a snapshot is written each time this much journal was appended (about 220,000 contacts). */
export const SNAPSHOT_DURING_RUN_BYTES = 64 << 20;

/** One job's journal file, open for appending: the replayed state, kept current as events are recorded. */
export interface JobJournal {
  /** Per phone, as replayed at open and updated by every `record` (held in columns: see state-table.ts). */
  readonly state: StateTable;
  /** The journal's header (undefined for a new job until one is recorded). */
  readonly header: HeaderEvent | undefined;
  /** Unreadable lines skipped at open (a torn write), by line number. */
  readonly tornLineNumbers: readonly number[];
  /** Set when the journal had grown to many events per contact and was compacted first. */
  readonly compacted?: CompactionResult;
  /** Set when a snapshot could not be written (nothing is lost: the journal holds everything). */
  readonly snapshotProblem?: string;
  /**
   * Appends the event durably (fsync'd, group-committed), then folds it into `state`.
   * The state changes only once the event is on disk, in file order.
   */
  record(event: CheckpointEvent): Promise<void>;
  /** Flushes and closes the journal, then writes a snapshot when enough was appended since the last one. */
  close(): Promise<void>;
  stats(): JournalStats;
}

/**
 * Reads the job's state (its snapshot plus the journal's tail, creating the folder) and opens the
 * journal for appending. A journal that has grown to many events per contact (long resumes, many
 * 429s) is compacted first; a long tail is folded into a new snapshot. The caller holds the job lock.
 */
export interface JobJournalOptions extends JournalOptions {
  /** Snapshot every this many bytes appended while the journal is open. Default SNAPSHOT_DURING_RUN_BYTES. */
  snapshotDuringRunBytes?: number;
}

export async function openJobJournal(file: string, options: JobJournalOptions = {}): Promise<JobJournal> {
  await ensureDir(path.dirname(file));
  let loaded: LoadedState = await loadState(file);
  let compacted: CompactionResult | undefined;
  /** Bytes of journal that no snapshot on disk covers. */
  let uncovered = loaded.tailBytes;
  if (shouldCompact(loaded.position.events, loaded.state.size)) {
    compacted = await compactJournal(file);
    loaded = await loadState(file, { fromStart: true });
    uncovered = Number.POSITIVE_INFINITY;
  }
  // The snapshot of a long fold is written while the run goes on (its image is taken now, before any
  // append; the write is atomic, so a crash during it leaves the last snapshot or none): `close` waits for it.
  const atOpen = snapshotIfDue(file, loaded, uncovered);
  let problem: string | undefined;
  const journal = await openJournal(file, options).catch(async (err: unknown) => {
    await atOpen;
    throw err;
  });
  const sizeAtOpen = await journalSize(file);
  const duringRun = options.snapshotDuringRunBytes ?? SNAPSHOT_DURING_RUN_BYTES;
  const { state } = loaded;
  let header = loaded.header;
  let contactEvents = 0;
  let broken = false;
  let closing: Promise<void> | undefined;
  /** The snapshot being written while the run goes on, if any (first the one of the fold at open). */
  let writing: Promise<void> | undefined = atOpen.then((result) => {
    if (result.written) uncovered = 0;
    problem = result.problem ?? problem;
    writing = undefined;
  });
  /** Journal bytes (of this journal's appends) that the last snapshot covers. */
  let snapshotAt = 0;

  /**
   * Where the state stands in the file: every flush that completed has been folded into the state once
   * the microtasks that resolved its appends ran, so this is read from a macrotask (or after close).
   */
  const position = () => {
    const appended = journal.stats();
    return { bytes: sizeAtOpen + appended.bytes, lines: loaded.position.lines + appended.appends, events: loaded.position.events + contactEvents };
  };
  const snapshot = async (force: boolean) => {
    const at = journal.stats().bytes;
    const result = await snapshotIfDue(file, { state, header, position: position() }, force ? Number.POSITIVE_INFINITY : uncovered + at - snapshotAt);
    if (result.written) {
      uncovered = 0;
      snapshotAt = at;
    }
    problem = result.problem ?? problem;
    return result.written;
  };

  /** Starts a background snapshot once enough was appended since the last; one that ends with as much appended again starts the next. */
  const snapshotWhenDue = (): void => {
    if (writing || closing || broken || uncovered + journal.bytes() - snapshotAt < duringRun) return;
    let written = false;
    writing = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        if (broken || closing) return;
        const at = journal.stats().bytes;
        written = await snapshot(true);
        // One that could not be written is tried again after another interval, not at every record.
        if (!written) {
          uncovered = 0;
          snapshotAt = at;
        }
      })
      .finally(() => {
        writing = undefined;
        if (written) snapshotWhenDue();
      });
  };

  return {
    state,
    get header() {
      return header;
    },
    tornLineNumbers: compacted ? [] : loaded.tornLineNumbers,
    ...(compacted && { compacted }),
    get snapshotProblem() {
      return problem;
    },
    async record(event) {
      try {
        await journal.append(event);
      } catch (err) {
        broken = true;
        throw err;
      }
      if (event.t === 'header') header = event;
      else {
        contactEvents += 1;
        applyEvent(state, event);
      }
      // A long run keeps a recent snapshot, so that opening the job after a crash replays a short tail.
      snapshotWhenDue();
    },
    close() {
      closing ??= (async () => {
        await journal.close();
        await writing;
        if (broken || journal.stats().appends === 0) return;
        await snapshot(false);
      })();
      return closing;
    },
    stats: () => journal.stats(),
  };
}
