/**
 * The storage port: everything the program keeps between runs goes through these two interfaces.
 * The file backend (`file/`) is today's implementation; a database backend implements the same
 * interfaces and nothing in `run/`, `app/` or `cli/` changes. No other folder names a state file:
 * the paths a person needs (report, rejects, log) are the ones the store reports.
 *
 * Every type here is the port's own (`inbound.ts`, `windows.ts`, `sync.ts`, `ledger.ts`,
 * `suppression.ts`, `types.ts`): none belongs to a backend. What every backend must do with them is
 * stated by one contract suite, `test/checkpoint/contract/`, run against each backend.
 */
import type { ContactListing } from './listing.js';
import type { StateTally, TallyOptions } from './state-tally.js';
import type { StateRows, StateRowsOptions } from './state-rows.js';
import type { CheckpointEvent, ContactEvent, ContactState, ContactStatus, HeaderEvent } from './types.js';
import type { EventsLog, OpenEventsLogOptions, SentContact } from './inbound.js';
import type { SyncBook } from './sync.js';
import type { WindowLookup, WindowStore } from './windows.js';
import type { BudgetHolder, Ledger, RecentLedger } from './ledger.js';
import type { SuppressionInput, SuppressionList, SuppressResult, UnsuppressOptions } from './suppression.js';
import type { RateShareRegistry } from '../rate-share/index.js';

/** Who holds a job while it runs (what the store records of its owner). */
export interface JobOwner {
  /** The machine the owner runs on; by default this machine's name (`os.hostname()`), filled by the store. */
  host?: string;
  pid: number;
  startedAt: string;
  command: string;
  /** The job file this owner runs it from (for people: `status` says where the job runs now; never compared). */
  jobFile?: string;
}

/** A run holding a job now, as its lock records it. */
export interface JobRunner {
  pid: number;
  /** The host the run is on (its process can be checked only from there). */
  host: string;
  /** ISO time the run took the job; empty when the lock does not say. */
  since: string;
  /** The command that runs it (`run`, `resume`, `track`…); empty when the lock does not say. */
  command: string;
  /** The job file it runs from, when the lock says (for people only). */
  jobFile?: string;
  /**
   * Set when the owner's process is known to be gone (a lease of this host whose pid is dead): nothing runs
   * the job any more, and a run on this host takes it over at once; `until` is when its hold would have lapsed.
   */
  gone?: { until: string };
}

/** Where a job's outputs for people go, as this store places them. */
export interface JobFiles {
  /** The job's folder (or a store's equivalent place for its outputs). */
  dir: string;
  report: string;
  rejects: string;
  summary: string;
  log: string;
  /** Test sends (`run --test-to`), one JSON line each: kept apart from the job's state, never read by a run. */
  testSends: string;
}

/** A row of the contact list, by file and line: how a plan reject is remembered. */
export interface RowRef {
  file: string;
  line: number;
}

/** Something a person should hear about how the store read or kept a job (a record it had to skip, a tidying it did). */
export interface StoreNotice {
  level: 'info' | 'warn';
  /** One sentence, naming the place (a file, a table) it is about. */
  message: string;
}

/**
 * A job's states by phone, with the reads a use case makes of a million of them without building a
 * state per contact. Every backend's states answer each one (a backend with no faster way answers the
 * general way, from the map: `statesOf` in map-states.ts); a caller never asks which it has.
 */
export interface ContactStates extends ReadonlyMap<string, ContactState> {
  /** The status of a phone's state, without building the state. */
  statusOf(phone: string): ContactStatus | undefined;
  /** The status of each of the listing's contacts, by its position there (a run going on picks its rows with it). */
  listedStatus(listing: ContactListing): (position: number) => ContactStatus | undefined;
  /** The sent contacts, as the replies are matched on them. */
  sentEntries(): Iterable<readonly [string, SentContact]>;
  /** How many of the listing's contacts have no state here. */
  countUnseen(listing: ContactListing): number;
  /** The positions in the listing of its contacts with no state here, ascending: the report's pending rows. */
  unseenAt(listing: ContactListing): Iterable<number>;
  /**
   * The counted status: the states' counts by tally (what status and the summary count), no state read
   * when the backend keeps counters. An in-doubt state's attempt time is in no tally; with
   * `attemptsSince` (a run's start, for a reader that counts its requests in flight) each in-doubt
   * tally with no answer comes in two by it (state-tally.ts).
   */
  tallies(options?: TallyOptions): Iterable<StateTally>;
  /** The report-row source (state-rows.ts): each state in iteration order as its own values and a shape. */
  reportRows(options?: StateRowsOptions): StateRows;
}

/** How a job's listing is read. */
export interface ListingReadOptions {
  /**
   * Only its phones will be read (status counts the pending contacts): they may be left in the store
   * and read part by part as a count walks them, and the rest of it is checked when first read, not
   * now (a backend that reads the listing whole checks it whole anyway). A rest found damaged then is
   * an error (ListingReadError) where a read that checks it at once would have given none (the list
   * then read again): for a reader that never asks for a contact.
   */
  phonesOnly?: boolean;
}

/** A job's state as read: its header (the content in force), and one state per phone. */
export interface JobView {
  readonly header: HeaderEvent | undefined;
  readonly states: ContactStates;
  /** What a person should hear about how the state was read (records skipped, tidying done); empty when nothing. */
  readonly notices: readonly StoreNotice[];
}

/** A job opened for a run: its lock held, its state replayed and kept current as events are recorded. */
export interface JobStore extends JobView {
  readonly files: JobFiles;
  /** The owner whose hold had lapsed (its process gone) when this one took the job over, if any. */
  readonly tookOverFrom?: { host: string; pid: number };
  /** Appends durably (a later crash keeps it), then folds the event into `states`. */
  record(event: CheckpointEvent): Promise<void>;
  /** Closes the journal and releases the lock. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * A store, seen whole or as one company's part (`account`). The business's memory belongs to the
 * company (`company_id`): a company's part holds its jobs, by name, and the lists every job of the
 * company shares (the suppression list, the ledger of first messages with the messaging limit and
 * the frequency cap, the reply windows), whatever folder or host a job file sits on; two companies of
 * one store never see each other's. The store seen whole (what a backend's factory returns) reads
 * every company's lists together and writes lists that belong to no company in particular (what a
 * store written before companies were kept holds: they count for every company), and names a job by
 * its stored name. Every use case that knows its job's company works on `account(company)`. It keeps the
 * store's registry of senders per number too (`claimRate`, `leaveRate`: `rate-share/`).
 */
export interface StateStore extends RateShareRegistry {
  /** Where the store is, for people (a folder for the file backend). */
  readonly location: string;
  /** The company this view is scoped to; undefined for the store seen whole. */
  readonly company?: number;
  /** One company's part of the store: its jobs by name and its shared lists (the same object for the same company). */
  account(company: number): StateStore;
  /** The companies whose jobs the store holds (from the jobs' pinned content), ascending. */
  companies(): Promise<number[]>;
  /** Where the job's files for people go (after any other call about the job, the folder of the job as stored). */
  jobFiles(job: string): JobFiles;
  /**
   * The jobs the store holds (each opened once: what `readJob` reads), by key: in the store seen whole every company's, each by the
   * key it is kept under; in a company's part its own and those naming no company, each by its name.
   */
  jobs(): Promise<StoredJob[]>;
  /** Takes the job (refusing, naming the holder's host and pid, while another owner holds it) and replays its state. */
  openJob(job: string, owner: JobOwner): Promise<JobStore>;
  /**
   * Who runs the job now (holds its lock), without taking it: undefined when nobody does. A lock left
   * by a process that died is not a run; one on another host, which cannot be checked, is taken as one.
   */
  runningBy(job: string): Promise<JobRunner | undefined>;
  /** The job's state without taking its lock (status, report); undefined for a job never run. */
  readJob(job: string): Promise<JobView | undefined>;
  /** Every event recorded about one contact of the job, oldest first (a compacted journal keeps a short equivalent). */
  contactEvents(job: string, phone: string): Promise<ContactEvent[]>;
  /** Rows the last plan pass rejected: never sent, and not counted as pending. */
  planRejects(job: string): Promise<ReadonlySet<string>>;
  savePlanRejects(job: string, rows: Iterable<RowRef>): Promise<void>;
  /**
   * The list's usable contacts as the last full read of it left them, when that read was of the list
   * as it is now (`source`: what the caller makes of the files and the settings that read them);
   * undefined otherwise. Lets status and report count pending contacts without reading the list again.
   */
  listing(job: string, source: string, options?: ListingReadOptions): Promise<ContactListing | undefined>;
  /**
   * The listing the last full read left, whatever it was read from (its `source` and `reads` say
   * what): a list that only grew since is read from where it grew, the caller checking the files
   * against the reads. Undefined when there is none or it does not check.
   */
  lastListing(job: string): Promise<ContactListing | undefined>;
  saveListing(job: string, source: string, listing: ContactListing): Promise<void>;
  /**
   * A small JSON note kept for a job under `key` (when `track` last read it, an experiment's decision),
   * as last saved; undefined when none. Written whole, durable when `saveJobNote` resolves.
   */
  jobNote(job: string, key: JobNoteKey): Promise<unknown>;
  saveJobNote(job: string, key: JobNoteKey, value: unknown): Promise<void>;
  /** Last inbound time per phone (the 24-hour windows), read now. */
  windows(): Promise<WindowLookup>;
  openWindowStore(): Promise<WindowStore>;
  openEventsLog(options?: OpenEventsLogOptions): Promise<EventsLog>;
  loadSyncBook(): Promise<SyncBook>;
  saveSyncBook(book: SyncBook): Promise<void>;
  /** For each sent contact that wrote back after its message, the time of the first reply (ISO). */
  replies(sent: Iterable<readonly [string, SentContact]>): Promise<Map<string, string>>;
  /** Client id → phone, from every job's state (the webhook links inbound messages to phones with it). */
  knownPhones(): Promise<Map<string, string>>;
  /** Conversation id → the number (channel id) it was started from (a pool's contact's number, else the job's one number) and the company of the job that started it, from every job's state. */
  knownConversations(): Promise<Map<string, KnownConversation>>;
  /** The suppression list every job of the store honours, read now (`refresh` reads later changes). */
  suppressions(): Promise<SuppressionList>;
  /** Puts phones (E.164) on the suppression list; durable when it resolves. */
  suppress(entries: readonly SuppressionInput[]): Promise<SuppressResult>;
  /** Takes phones off the list (only entries of `onlySource`, when given); the phones removed. */
  unsuppress(phones: readonly string[], options?: UnsuppressOptions): Promise<string[]>;
  /** Every job's first messages: the messaging limit and the frequency cap count from it. */
  ledger(): Promise<Ledger>;
  /**
   * The ledger's counts of the rolling window after `since` (epoch ms), reading less than `ledger()`
   * where the backend can (the file's lines before it are not parsed); the same counts for any time at
   * or after `since`. Absent: `ledger()` answers.
   */
  recentLedger?(since: number): Promise<RecentLedger>;
  /** A new holder of places in the store-wide messaging limit, for one process's run. */
  budgetHolder(): Promise<BudgetHolder>;
  /** Places of the messaging limit that holders hold and have not used at `now` (epoch ms), lapsed holds left out; read only (status). None when absent. */
  placesHeld?(now: number): Promise<number>;
  /** Lets the store's resources go (a database's connections); the store is not used after. Safe to call twice. */
  close(): Promise<void>;
  /**
   * Whether the store can be used now, cheaply and writing nothing (a health check asks it every few
   * seconds): resolves when it can; rejects with a StoreUnavailableError naming the place (a folder; a
   * database's host, port and name, never its password) and why, when it cannot.
   */
  ping(): Promise<void>;
}

/** A job the store holds, as `StateStore.jobs` lists it (what its first header recorded; nothing of its states). */
export interface StoredJob {
  /** What this view of the store reads it by (`readJob`, `runningBy`, `jobFiles`): its name, or `name@company` in the store seen whole when another company's job has the name. */
  key: string;
  /** The job's name, as its job file gives it. */
  name: string;
  /** The company its pinned content names; absent when it names none (or it has no header yet). */
  company?: number;
  /** The job file that started its state, and that file's host (for people: never compared). */
  jobFile?: string;
  host?: string;
  /** When its state was started (its first header's time, ISO). */
  startedAt?: string;
}

/** What the store knows of a conversation one of its jobs started. */
export interface KnownConversation {
  /** The number it was started from, when the job's state says. */
  channel?: number;
  /** The company of the job that started it. */
  company?: number;
}

/** What a job's notes are kept under: `tracked` (when `track` last read the job), `experiment` (its decision), `follow_ups` (the jobs following it up). */
export type JobNoteKey = 'tracked' | 'experiment' | 'follow_ups';

/** The key of a row in `planRejects`. */
export function rowKey(row: RowRef): string {
  return `${row.file}:${row.line}`;
}
