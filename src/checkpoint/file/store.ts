/**
 * The file backend of the storage port: one state folder, a folder per job inside it, and the lists
 * every job shares as files at its top (each line, hold or mark carrying its company; see `store.ts`
 * for how a company's part and the store seen whole read them).
 */
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { rowKey, type JobFiles, type JobOwner, type JobRunner, type JobStore, type JobView, type KnownConversation, type RowRef, type StateStore, type StoredJob } from '../store.js';
import { jobChannel } from '../job-channel.js';
import { headerCompany, jobKeys, type JobKeys } from '../job-key.js';
import { jobsOfView, storedJob } from '../stored-jobs.js';
import { readHeader } from './read-header.js';
import { accountThrough } from '../account-view.js';
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
import { loadWindow, openWindowStore } from './window-store.js';
import { writeFileAtomic } from '../../files/atomic.js';
import { ledgerFile } from './ledger-file.js';
import { journalNotices } from './notices.js';
import { suppressionFile } from './suppression-file.js';
import { fileBudgetHolder, placesHeld } from './budget-file.js';
import { recentLedgerFile } from './recent-ledger.js';
import { fileRateShares } from './rate-shares.js';
import { pingFolder } from './ping.js';

export interface FileStoreOptions {
  /** How journals are opened (tests inject a failing disk). */
  journal?: JournalOptions;
  /** How the lock file is written (tests inject a full disk). */
  lock?: Partial<LockIo>;
  /**
   * The folder of the files for people (report.csv, rejects.csv, summary.json, run.log): each job's in a
   * folder named after it there. Default: the state folder itself, beside each job's state.
   */
  filesDir?: string;
}

/** The state folder `dir` as a store, seen whole. Nothing is created until something is written. */
export function createFileStore(dir: string, options: FileStoreOptions = {}): StateStore {
  const global = globalStatePaths(dir);
  const filesDir = options.filesDir ?? dir;
  const rateShares = fileRateShares(dir);
  const stored = {
    companyOf: async (key: string) => {
      const file = jobStatePaths(dir, key).checkpoint;
      return headerCompany(
        await readHeader(file).catch((err: unknown) => {
          throw stateFileError(err, file);
        }),
      );
    },
    exists: async (key: string) => existsSync(jobStatePaths(dir, key).checkpoint),
  };
  const accounts = new Map<number, StateStore>();
  let root: StateStore;

  /** The store as `company` sees it (undefined: whole). */
  const view = (company: number | undefined): StateStore => {
    const keys: JobKeys = jobKeys(company, stored);
    const suppression = suppressionFile(global.suppressions, company);
    const ledger = ledgerFile(global.ledger, company);
    const paths = async (job: string) => jobStatePaths(dir, await keys.key(job), filesDir);
    const jobFiles = (job: string): JobFiles => filesOf(jobStatePaths(dir, keys.known(job), filesDir), filesDir, keys.known(job));

    const store: StateStore = {
      location: dir,
      ...(company !== undefined && { company }),
      account: (id) => root.account(id),
      companies: () => root.companies(),
      jobFiles,
      jobs: async () => jobsOfView(await storedJobs(dir), company),

      async openJob(job: string, owner: JobOwner): Promise<JobStore> {
        const p = await paths(job);
        const lock = await acquireLock(p.lock, owner, options.lock).catch((err: unknown) => {
          throw stateFileError(err, p.lock);
        });
        try {
          const journal = await openJobJournal(p.checkpoint, options.journal).catch((err: unknown) => {
            throw stateFileError(err, p.checkpoint);
          });
          return {
            files: jobFiles(job),
            get header() {
              return journal.header;
            },
            states: journal.state,
            notices: journalNotices(p.checkpoint, journal.tornLineNumbers, journal.compacted),
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
        const file = (await paths(job)).lock;
        const owner = await lockHolder(file).catch((err: unknown) => {
          throw stateFileError(err, file);
        });
        return owner && { pid: owner.pid, host: owner.host, since: owner.startedAt, command: owner.command, ...(owner.jobFile !== undefined && { jobFile: owner.jobFile }) };
      },

      async readJob(job: string): Promise<JobView | undefined> {
        const file = (await paths(job)).checkpoint;
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
        const contents = await readJournal((await paths(job)).checkpoint, { lines: (line) => line.includes(needle) });
        return contents.events.filter((e) => e.phone === phone);
      },

      async planRejects(job: string): Promise<ReadonlySet<string>> {
        const file = (await paths(job)).planRejects;
        let text: string;
        try {
          text = await readFile(file, 'utf8');
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
          throw stateFileError(err, file);
        }
        let rows: { rows?: unknown } | null;
        try {
          rows = JSON.parse(text) as { rows?: unknown } | null;
        } catch {
          throw new StateFileError(`${file} is not readable JSON; delete it and run \`outreach plan\` again`);
        }
        return new Set(Array.isArray(rows?.rows) ? rows.rows.filter((r): r is string => typeof r === 'string') : []);
      },

      async savePlanRejects(job: string, rows: Iterable<RowRef>): Promise<void> {
        const keys = Array.from(rows, rowKey);
        const file = (await paths(job)).planRejects;
        await writeFileAtomic(file, `${JSON.stringify({ v: 1, rows: keys })}\n`).catch((err: unknown) => {
          throw storeWriteError(err, file, 'the plan\'s rejected rows');
        });
      },

      jobNote: async (job, key) => (await readNotes((await paths(job)).notes))[key],

      async saveJobNote(job, key, value): Promise<void> {
        const p = await paths(job);
        const notes = { ...(await readNotes(p.notes)), [key]: value };
        await ensureDir(p.dir);
        await writeFileAtomic(p.notes, `${JSON.stringify(notes)}\n`).catch((err: unknown) => {
          throw storeWriteError(err, p.notes, 'the job\'s notes');
        });
      },

      listing: async (job, source, options) => readListing((await paths(job)).listing, source, options),
      lastListing: async (job) => readListing((await paths(job)).listing, undefined),
      async saveListing(job, source, listing) {
        const p = await paths(job);
        await ensureDir(p.dir)
          .then(() => writeListing(p.listing, source, listing))
          .catch((err: unknown) => {
            throw storeWriteError(err, p.listing, 'the listing');
          });
      },

      windows: () =>
        loadWindow(global.window, company).catch((err: unknown) => {
          throw stateFileError(err, global.window);
        }),
      openWindowStore: () => openWindowStore(global.window, company),
      openEventsLog: (o) => openEventsLog(global.events, o),
      loadSyncBook: () => loadSyncBook(global.sync),
      saveSyncBook: (book) => saveSyncBook(global.sync, book),
      replies: (sent) => repliesFor(global.events, sent),
      suppressions: () => suppression.list(),
      suppress: (entries) => suppression.suppress(entries),
      unsuppress: (phones, o) => suppression.unsuppress(phones, o),
      ledger,
      budgetHolder: () => Promise.resolve(fileBudgetHolder(ledger, { holds: global.budgetHolds, lock: global.budgetLock }, company)),
      placesHeld: (now) => placesHeld(ledger, global.budgetHolds, now, company),
      recentLedger: (since) => recentLedgerFile(global.ledger, since, company),
      claimRate: rateShares.claimRate,
      leaveRate: rateShares.leaveRate,
      close: () => Promise.resolve(),
      ping: () => pingFolder(dir),

      async knownPhones(): Promise<Map<string, string>> {
        const phones = new Map<string, string>();
        for await (const { view: v } of everyJob(dir, (key) => root.readJob(key))) for (const s of v.states.values()) if (s.clientId) phones.set(s.clientId, s.phone);
        return phones;
      },

      async knownConversations(): Promise<Map<string, KnownConversation>> {
        const conversations = new Map<string, KnownConversation>();
        for await (const { view: v } of everyJob(dir, (key) => root.readJob(key))) {
          const single = jobChannel(v.header);
          const owner = headerCompany(v.header);
          for (const s of v.states.values()) {
            const conversationId = 'conversationId' in s ? s.conversationId : undefined;
            if (conversationId === undefined) continue;
            const channel = s.channelId ?? single;
            conversations.set(conversationId, { ...(channel !== undefined && { channel }), ...(owner !== undefined && { company: owner }) });
          }
        }
        return conversations;
      },
    };
    return store;
  };

  root = {
    ...view(undefined),
    account(this: StateStore, company: number): StateStore {
      let account = accounts.get(company);
      if (account === undefined) {
        account = view(company);
        accounts.set(company, account);
      }
      return accountThrough(this, root, account);
    },
    async companies(): Promise<number[]> {
      const found = new Set<number>();
      for (const key of await jobFolders(dir)) {
        const company = headerCompany(await readHeader(jobStatePaths(dir, key).checkpoint).catch(() => undefined));
        if (company !== undefined) found.add(company);
      }
      return [...found].sort((a, b) => a - b);
    },
  };
  return root;
}

/** The port's files for people of a job whose paths are `p`. */
function filesOf(p: ReturnType<typeof jobStatePaths>, filesDir: string, key: string): JobFiles {
  return { dir: path.join(filesDir, key), report: p.report, rejects: p.rejects, summary: p.summary, log: p.runLog, testSends: path.join(filesDir, key, 'test-sends.jsonl') };
}

/** The job folders of the state folder (none when it cannot be listed). */
async function jobFolders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
  } catch {
    return [];
  }
}

/** Every job folder of the state folder whose journal exists, with what its first header says. */
async function storedJobs(dir: string): Promise<StoredJob[]> {
  const jobs: StoredJob[] = [];
  for (const key of await jobFolders(dir)) {
    const file = jobStatePaths(dir, key).checkpoint;
    if (!existsSync(file)) continue;
    const header = await readHeader(file).catch((err: unknown) => {
      throw stateFileError(err, file);
    });
    jobs.push(storedJob(key, header));
  }
  return jobs;
}

/** The view of every job folder of the state folder that can be read, with its key. */
async function* everyJob(dir: string, readJob: (key: string) => Promise<JobView | undefined>): AsyncGenerator<{ key: string; view: JobView }> {
  for (const key of await jobFolders(dir)) {
    const view = await readJob(key).catch(() => undefined);
    if (view !== undefined) yield { key, view };
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
