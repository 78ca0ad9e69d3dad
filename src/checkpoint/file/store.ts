/** The file backend of the storage port: one folder per state directory, a folder per job inside it. */
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { readdir, readFile } from 'node:fs/promises';
import { rowKey, type JobFiles, type JobOwner, type JobRunner, type JobStore, type JobView, type RowRef, type StateStore } from '../store.js';
import { jobFilesIn } from '../job-files.js';
import { jobChannel } from '../job-channel.js';
import { openJobJournal } from './checkpoint.js';
import type { JournalOptions } from './journal.js';
import { StateFileError, stateFileError, storeWriteError } from './state-file-error.js';
import { openEventsLog, repliesFor } from './events-log.js';
import { acquireLock, lockHolder, type LockIo } from './lock.js';
import { readListing, writeListing } from './listing-file.js';
import { ensureDir, globalStatePaths, jobStatePaths } from './paths.js';
import { loadState, snapshotIfDue, SNAPSHOT_AFTER_BYTES } from './load-state.js';
import { readCounted } from './counted-read.js';
import { readJournal } from './read-journal.js';
import { loadSyncBook, saveSyncBook } from './sync-book.js';
import { loadWindow, openWindowStore, writeFileAtomic } from './window-store.js';
import { ledgerFile } from './ledger-file.js';
import { journalNotices } from './notices.js';
import { suppressionFile } from './suppression-file.js';
import { fileBudgetHolder, placesHeld } from './budget-file.js';
import { fileRateShares } from './rate-share-file.js';
import { pingFolder } from './ping.js';

export interface FileStoreOptions {
  /** How journals are opened (tests inject a failing disk). */
  journal?: JournalOptions;
  /** How the lock file is written (tests inject a full disk). */
  lock?: Partial<LockIo>;
}

/** The state folder `dir` as a store. Nothing is created until something is written. */
export function createFileStore(dir: string, options: FileStoreOptions = {}): StateStore {
  const global = globalStatePaths(dir);
  const suppression = suppressionFile(global.suppressions);
  const ledger = ledgerFile(global.ledger);
  const rateShares = fileRateShares(dir);
  const jobFiles = (job: string): JobFiles => {
    const p = jobStatePaths(dir, job);
    return { dir: p.dir, report: p.report, rejects: p.rejects, summary: p.summary, log: p.runLog, testSends: jobFilesIn(dir, job).testSends };
  };

  return {
    location: dir,
    jobFiles,

    async openJob(job: string, owner: JobOwner): Promise<JobStore> {
      const paths = jobStatePaths(dir, job);
      const lock = await acquireLock(paths.lock, owner, options.lock).catch((err: unknown) => {
        throw stateFileError(err, paths.lock);
      });
      try {
        const journal = await openJobJournal(paths.checkpoint, options.journal).catch((err: unknown) => {
          throw stateFileError(err, paths.checkpoint);
        });
        return {
          files: jobFiles(job),
          get header() {
            return journal.header;
          },
          states: journal.state,
          notices: journalNotices(paths.checkpoint, journal.tornLineNumbers, journal.compacted),
          // A lock of another host is never taken over (its process cannot be checked): the lapsed owner was of this one.
          ...(lock.tookOverFrom !== undefined && { tookOverFrom: { host: hostname(), pid: lock.tookOverFrom } }),
          record: (event) => journal.record(event),
          async close() {
            try {
              await journal.close();
            } finally {
              await lock.release();
            }
          },
        };
      } catch (err) {
        await lock.release();
        throw err;
      }
    },

    async runningBy(job: string): Promise<JobRunner | undefined> {
      const file = jobStatePaths(dir, job).lock;
      const owner = await lockHolder(file).catch((err: unknown) => {
        throw stateFileError(err, file);
      });
      return owner && { pid: owner.pid, host: owner.host, since: owner.startedAt, command: owner.command };
    },

    async readJob(job: string): Promise<JobView | undefined> {
      const file = jobStatePaths(dir, job).checkpoint;
      if (!existsSync(file)) return undefined;
      // Counting needs no column but the phones: the snapshot's counters and a short tail (the rest is read when asked for).
      const counted = await readCounted(file, SNAPSHOT_AFTER_BYTES);
      if (counted) return counted;
      const loaded = await loadState(file).catch((err: unknown) => {
        throw stateFileError(err, file);
      });
      // A long tail read here is folded into a snapshot for the next reader (best effort: the journal is the truth).
      await snapshotIfDue(file, loaded, loaded.tailBytes);
      return { header: loaded.header, states: loaded.state, notices: journalNotices(file, loaded.tornLineNumbers) };
    },

    async contactEvents(job: string, phone: string) {
      // Only the lines that name the phone are parsed: a million-contact journal is not held whole.
      const needle = JSON.stringify(phone);
      const contents = await readJournal(jobStatePaths(dir, job).checkpoint, { lines: (line) => line.includes(needle) });
      return contents.events.filter((e) => e.phone === phone);
    },

    async planRejects(job: string): Promise<ReadonlySet<string>> {
      let text: string;
      try {
        text = await readFile(jobStatePaths(dir, job).planRejects, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
        throw stateFileError(err, jobStatePaths(dir, job).planRejects);
      }
      let rows: { rows?: unknown } | null;
      try {
        rows = JSON.parse(text) as { rows?: unknown } | null;
      } catch {
        throw new StateFileError(`${jobStatePaths(dir, job).planRejects} is not readable JSON; delete it and run \`outreach plan\` again`);
      }
      return new Set(Array.isArray(rows?.rows) ? rows.rows.filter((r): r is string => typeof r === 'string') : []);
    },

    async savePlanRejects(job: string, rows: Iterable<RowRef>): Promise<void> {
      const keys = Array.from(rows, rowKey);
      const file = jobStatePaths(dir, job).planRejects;
      await writeFileAtomic(file, `${JSON.stringify({ v: 1, rows: keys })}\n`).catch((err: unknown) => {
        throw storeWriteError(err, file, 'the plan\'s rejected rows');
      });
    },

    jobNote: async (job, key) => (await readNotes(jobStatePaths(dir, job).notes))[key],

    async saveJobNote(job, key, value): Promise<void> {
      const file = jobStatePaths(dir, job).notes;
      const notes = { ...(await readNotes(file)), [key]: value };
      await ensureDir(jobStatePaths(dir, job).dir);
      await writeFileAtomic(file, `${JSON.stringify(notes)}\n`).catch((err: unknown) => {
        throw storeWriteError(err, file, 'the job\'s notes');
      });
    },

    listing: (job, source) => readListing(jobStatePaths(dir, job).listing, source),
    async saveListing(job, source, listing) {
      const paths = jobStatePaths(dir, job);
      await ensureDir(paths.dir)
        .then(() => writeListing(paths.listing, source, listing))
        .catch((err: unknown) => {
          throw storeWriteError(err, paths.listing, 'the listing');
        });
    },

    windows: () =>
      loadWindow(global.window).catch((err: unknown) => {
        throw stateFileError(err, global.window);
      }),
    openWindowStore: () => openWindowStore(global.window),
    openEventsLog: (options) => openEventsLog(global.events, options),
    loadSyncBook: () => loadSyncBook(global.sync),
    saveSyncBook: (book) => saveSyncBook(global.sync, book),
    replies: (sent) => repliesFor(global.events, sent),
    suppressions: () => suppression.list(),
    suppress: (entries) => suppression.suppress(entries),
    unsuppress: (phones, options) => suppression.unsuppress(phones, options),
    ledger,
    budgetHolder: () => Promise.resolve(fileBudgetHolder(ledger, { holds: global.budgetHolds, lock: global.budgetLock })),
    placesHeld: (now) => placesHeld(ledger, global.budgetHolds, now),
    claimRate: (claim) => rateShares.claim(claim),
    leaveRate: (channel, sender, now) => rateShares.leave(channel, sender, now),
    close: () => Promise.resolve(),

    async knownPhones(): Promise<Map<string, string>> {
      const phones = new Map<string, string>();
      for await (const view of everyJob(dir, (job) => this.readJob(job))) for (const s of view.states.values()) if (s.clientId) phones.set(s.clientId, s.phone);
      return phones;
    },

    async knownConversations(): Promise<Map<string, number>> {
      const conversations = new Map<string, number>();
      for await (const view of everyJob(dir, (job) => this.readJob(job))) {
        const single = jobChannel(view.header);
        for (const s of view.states.values()) {
          const conversationId = 'conversationId' in s ? s.conversationId : undefined;
          const channel = s.channelId ?? single;
          if (conversationId !== undefined && channel !== undefined) conversations.set(conversationId, channel);
        }
      }
      return conversations;
    },

    ping: () => pingFolder(dir),
  };
}

/** The view of every job folder of the state folder that can be read (none when the folder cannot be listed). */
async function* everyJob(dir: string, readJob: (job: string) => Promise<JobView | undefined>): AsyncGenerator<JobView> {
  let jobs: string[];
  try {
    jobs = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return;
  }
  for (const job of jobs) {
    const view = await readJob(job).catch(() => undefined);
    if (view !== undefined) yield view;
  }
}

/** A job's notes file as an object; none when it does not exist. */
async function readNotes(file: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw stateFileError(err, file);
  }
  try {
    const notes: unknown = JSON.parse(text);
    return notes !== null && typeof notes === 'object' && !Array.isArray(notes) ? (notes as Record<string, unknown>) : {};
  } catch {
    throw new StateFileError(`${file} is not readable JSON; delete it and run \`outreach track\` again`);
  }
}
