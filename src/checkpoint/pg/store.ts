/**
 * The PostgreSQL backend of the storage port: every process on every host that opens the same URL
 * (and schema) shares one store. Jobs are held by a fenced lease (`job.ts`); the store-wide lists
 * are tables folded by the port's own indexes. The local folder (`filesDir`) holds only the files for
 * people (report, rejects, log, summary): nothing the store needs.
 */
import type { JobFiles, StateStore } from '../store.js';
import { jobFilesIn } from '../job-files.js';
import { Db, type DbOptions } from './db.js';
import { parsePgUrl, type PgStoreUrl } from './url.js';
import { contactEvents, knownConversations, knownPhones, openPgJob, readPgJob, runningBy, type LeaseOptions } from './job.js';
import { jobNote, listing, planRejects, saveJobNote, saveListing, savePlanRejects } from './job-extras.js';
import { pgSuppression } from './suppression.js';
import { openPgLedger, pgBudgetHolder } from './ledger.js';
import { pgPlacesHeld } from './budget.js';
import { openPgWindowStore, pgWindows } from './windows.js';
import { openPgEventsLog, pgReplies } from './events.js';
import { loadPgSyncBook, savePgSyncBook } from './sync-book.js';
import { pgClaimRate, pgLeaveRate } from './rate-shares.js';
import { pingDb } from './ping.js';

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
  const suppression = pgSuppression(db);
  const jobFiles = (job: string): JobFiles => jobFilesIn(options.filesDir, job);
  return {
    db,
    location: parsed.display,
    jobFiles,
    openJob: (job, owner) => openPgJob(db, job, owner, jobFiles(job), options),
    runningBy: (job) => runningBy(db, job),
    readJob: (job) => readPgJob(db, job),
    contactEvents: (job, phone) => contactEvents(db, job, phone),
    planRejects: (job) => planRejects(db, job),
    savePlanRejects: (job, rows) => savePlanRejects(db, job, rows),
    jobNote: (job, key) => jobNote(db, job, key),
    saveJobNote: (job, key, value) => saveJobNote(db, job, key, value),
    listing: (job, source) => listing(db, job, source),
    saveListing: (job, source, l) => saveListing(db, job, source, l),
    windows: () => pgWindows(db),
    openWindowStore: () => openPgWindowStore(db),
    openEventsLog: (o) => openPgEventsLog(db, o),
    loadSyncBook: () => loadPgSyncBook(db),
    saveSyncBook: (book) => savePgSyncBook(db, book),
    replies: (sent) => pgReplies(db, sent),
    knownPhones: () => knownPhones(db),
    knownConversations: () => knownConversations(db),
    suppressions: () => suppression.list(),
    suppress: (entries) => suppression.suppress(entries),
    unsuppress: (phones, o) => suppression.unsuppress(phones, o),
    ledger: () => openPgLedger(db),
    budgetHolder: () => pgBudgetHolder(db),
    placesHeld: () => pgPlacesHeld(db),
    claimRate: (claim) => pgClaimRate(db, claim),
    leaveRate: (channel, sender) => pgLeaveRate(db, channel, sender),
    close: () => db.close(),
    ping: () => pingDb(db),
  };
}
