import path from 'node:path';
import { applyEvent } from '../apply-event.js';
import { replay } from '../replay.js';
import type { CheckpointEvent, ContactState, HeaderEvent } from '../types.js';
import { compactJournal, shouldCompact, type CompactionResult } from './compact.js';
import { openJournal, type JournalOptions, type JournalStats } from './journal.js';
import { ensureDir } from './paths.js';
import { readJournal } from './read-journal.js';

/** One job's journal file, open for appending: the replayed state, kept current as events are recorded. */
export interface JobJournal {
  /** Per phone, as replayed at open and updated by every `record`. */
  readonly state: Map<string, ContactState>;
  /** The journal's header (undefined for a new job until one is recorded). */
  readonly header: HeaderEvent | undefined;
  /** Unreadable lines skipped at open (a torn write), by line number. */
  readonly tornLineNumbers: readonly number[];
  /** Set when the journal had grown to many events per contact and was compacted first. */
  readonly compacted?: CompactionResult;
  /**
   * Appends the event durably (fsync'd, group-committed), then folds it into `state`.
   * The state changes only once the event is on disk, in file order.
   */
  record(event: CheckpointEvent): Promise<void>;
  close(): Promise<void>;
  stats(): JournalStats;
}

/**
 * Reads the journal (creating its folder) and opens it for appending. A journal that has grown to
 * many events per contact (long resumes, many 429s) is compacted first. The caller holds the job lock.
 */
export async function openJobJournal(file: string, options: JournalOptions = {}): Promise<JobJournal> {
  await ensureDir(path.dirname(file));
  let contents = await readJournal(file);
  let state = replay(contents.events);
  let compacted: CompactionResult | undefined;
  if (shouldCompact(contents.events.length, state.size)) {
    compacted = await compactJournal(file);
    contents = await readJournal(file);
    state = replay(contents.events);
  }
  const journal = await openJournal(file, options);
  let header = contents.header;

  return {
    state,
    get header() {
      return header;
    },
    tornLineNumbers: compacted ? [] : contents.tornLineNumbers,
    ...(compacted && { compacted }),
    async record(event) {
      await journal.append(event);
      if (event.t === 'header') header = event;
      else applyEvent(state, event);
    },
    close: () => journal.close(),
    stats: () => journal.stats(),
  };
}
