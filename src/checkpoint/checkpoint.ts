import { applyEvent } from './apply-event.js';
import { openJournal, type Journal, type JournalOptions, type JournalStats } from './journal.js';
import { ensureDir, jobStatePaths, type JobStatePaths } from './paths.js';
import { readJournal, replay } from './replay.js';
import type { CheckpointEvent, ContactState, HeaderEvent } from './types.js';

/** One job's checkpoint: the replayed state, kept current as events are recorded. */
export interface Checkpoint {
  readonly paths: JobStatePaths;
  /** Per phone, as replayed at open and updated by every `record`. */
  readonly state: Map<string, ContactState>;
  /** The journal's header (undefined for a new job until one is recorded). */
  readonly header: HeaderEvent | undefined;
  /** Events read at open (headers excluded): compare with `state.size` to decide on compaction. */
  readonly eventsAtOpen: number;
  /** Unreadable lines skipped at open, with their line numbers: the caller warns. */
  readonly tornLines: number;
  readonly tornLineNumbers: readonly number[];
  /**
   * Appends the event durably (fsync'd, group-committed), then folds it into `state`.
   * The state changes only once the event is on disk, in file order.
   */
  record(event: CheckpointEvent): Promise<void>;
  close(): Promise<void>;
  stats(): JournalStats;
}

/** Reads `<stateDir>/<job>/checkpoint.jsonl` (creating the folder) and opens it for appending. */
export async function openCheckpoint(
  stateDir: string,
  jobName: string,
  options: JournalOptions = {},
): Promise<Checkpoint> {
  const paths = jobStatePaths(stateDir, jobName);
  await ensureDir(paths.dir);
  const contents = await readJournal(paths.checkpoint);
  const state = replay(contents.events);
  const journal: Journal = await openJournal(paths.checkpoint, options);
  let header = contents.header;

  return {
    paths,
    state,
    get header() {
      return header;
    },
    eventsAtOpen: contents.events.length,
    tornLines: contents.tornLines,
    tornLineNumbers: contents.tornLineNumbers,
    async record(event) {
      await journal.append(event);
      if (event.t === 'header') header = event;
      else applyEvent(state, event);
    },
    close: () => journal.close(),
    stats: () => journal.stats(),
  };
}
