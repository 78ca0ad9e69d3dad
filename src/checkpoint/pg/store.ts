/**
 * The PostgreSQL backend of the storage port: every process on every host that opens the same URL
 * (and schema) shares one store. Jobs are held by a fenced lease (`job.ts`); the shared lists are
 * tables folded by the port's own indexes, each row carrying its company (`store.ts` says how a
 * company's part and the store seen whole read them). The local folder (`filesDir`) holds only the
 * files for people (report, rejects, log, summary): nothing the store needs.
 */
import type { JobFiles, StateStore } from '../store.js';
import { jobFilesIn } from '../job-files.js';
import { headerCompany, jobKeys } from '../job-key.js';
import { accountThrough } from '../account-view.js';
import { Db, type DbOptions } from './db.js';
import { parsePgUrl, type PgStoreUrl } from './url.js';
import { contactEvents, knownConversations, knownPhones, openPgJob, pgCompanies, pgJobExists, pgJobHeader, readPgJob, runningBy, type LeaseOptions } from './job.js';
import { jobNote, listing, planRejects, saveJobNote, saveListing, savePlanRejects } from './job-extras.js';
import { pgSuppression } from './suppression.js';
import { openPgLedger, pgBudgetHolder } from './ledger.js';
import { pgPlacesHeld } from './budget.js';
import { openPgWindowStore, pgWindows } from './windows.js';
import { openPgEventsLog, pgReplies } from './events.js';
import { loadPgSyncBook, savePgSyncBook } from './sync-book.js';
import { pgRateShares } from './rate-shares.js';
import { pingDb } from './ping.js';
import { pgStoredJobs } from './stored-jobs.js';
import { jobsOfView } from '../stored-jobs.js';

export interface PgStoreOptions extends DbOptions, LeaseOptions {
  /** The local folder for the files for people (report.csv, rejects.csv, run.log, summary.json, report.html). */
  filesDir: string;
}

export interface PgStateStore extends StateStore {
  readonly db: Db;
}

export function createPgStore(url: string | PgStoreUrl, options: PgStoreOptions): PgStateStore {
  const parsed = typeof url === 'string' ? parsePgUrl(url) : url;
  const db = new Db(parsed, options);
  const rateShares = pgRateShares(db);
  const stored = { companyOf: async (key: string) => headerCompany(await pgJobHeader(db, key)), exists: (key: string) => pgJobExists(db, key) };
  const accounts = new Map<number, PgStateStore>();
  let root: PgStateStore;

  /** The store as `company` sees it (undefined: whole). */
  const view = (company: number | undefined): PgStateStore => {
    const keys = jobKeys(company, stored);
    const suppression = pgSuppression(db, company);
    const jobFiles = (job: string): JobFiles => jobFilesIn(options.filesDir, keys.known(job));
    const k = (job: string) => keys.key(job);
    return {
      db,
      location: parsed.display,
      ...(company !== undefined && { company }),
      account: (id) => root.account(id),
      companies: () => pgCompanies(db),
      jobFiles,
      jobs: async () => jobsOfView(await pgStoredJobs(db), company),
      openJob: async (job, owner) => {
        const key = await k(job);
        return openPgJob(db, key, owner, jobFiles(job), options);
      },
      runningBy: async (job) => runningBy(db, await k(job)),
      readJob: async (job) => readPgJob(db, await k(job)),
      contactEvents: async (job, phone) => contactEvents(db, await k(job), phone),
      planRejects: async (job) => planRejects(db, await k(job)),
      savePlanRejects: async (job, rows) => savePlanRejects(db, await k(job), rows),
      jobNote: async (job, key) => jobNote(db, await k(job), key),
      saveJobNote: async (job, key, value) => saveJobNote(db, await k(job), key, value),
      // Read whole from its row, and checked whole: a reader of its phones only (ListingReadOptions) reads the same.
      listing: async (job, source) => listing(db, await k(job), source),
      lastListing: async (job) => listing(db, await k(job), undefined),
      saveListing: async (job, source, l) => saveListing(db, await k(job), source, l),
      windows: () => pgWindows(db, company),
      openWindowStore: () => openPgWindowStore(db, company),
      openEventsLog: (o) => openPgEventsLog(db, o),
      loadSyncBook: () => loadPgSyncBook(db),
      saveSyncBook: (book) => savePgSyncBook(db, book),
      replies: (sent) => pgReplies(db, sent),
      knownPhones: () => knownPhones(db),
      knownConversations: () => knownConversations(db),
      suppressions: () => suppression.list(),
      suppress: (entries) => suppression.suppress(entries),
      unsuppress: (phones, o) => suppression.unsuppress(phones, o),
      ledger: () => openPgLedger(db, company, options.leaseSeconds),
      budgetHolder: () => pgBudgetHolder(db, company, options.leaseSeconds),
      placesHeld: () => pgPlacesHeld(db, company),
      claimRate: rateShares.claimRate,
      leaveRate: rateShares.leaveRate,
      // The connections are the store's: a company's part lets nothing go (the composition root closes the store).
      close: () => (company === undefined ? db.close() : Promise.resolve()),
      ping: () => pingDb(db),
    };
  };

  root = {
    ...view(undefined),
    account(this: StateStore, company: number): PgStateStore {
      let account = accounts.get(company);
      if (account === undefined) {
        account = view(company);
        accounts.set(company, account);
      }
      return accountThrough(this, root, account);
    },
  };
  return root;
}
