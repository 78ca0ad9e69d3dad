import { ContactListing, type ListingReadOptions, type ContactState, type ContactStates, type InDoubtState, type JobRunner, type ListedContact, type StateStore } from '../../checkpoint/index.js';
import type { Job, LoadedJob } from '../../job/index.js';
import { columnCsvChunks, columnCsvFits, contactRow, readRejects, reportRowsOf, writeRejects, writeReport, type DeferredGroup, type ReportFormat, type ReportLayout, type ReportRow, type Summary } from '../../report/index.js';
import { contactListOf, listedOf, countPending, listedContacts } from '../list/index.js';
import { AppError } from '../errors.js';
import { startedFrom, type JobPlace, loadJobIn, type ContactList } from '../load/index.js';
import type { FollowUpView } from '../follow-up/index.js';
import { armFor, experimentDecision, experimentView, withArms, type ExperimentView } from '../experiment/index.js';
import { messagingRoom, type MessagingRoom } from '../account/index.js';
import { type Funnel, repliesOf } from '../delivery/index.js';
import { digestStates, inFlightSince } from './states-digest.js';
import { lastRunNumbers, numbersStatus, type NumberStatus } from './pool-status.js';
import { reportLayout, writeHtmlReport, type JobReport, type ReportColumnsOption } from './output.js';
import { writeFileAtomic } from '../../files/atomic.js';

export type { Listed } from '../list/index.js';

/**
 * The job's report rows, one at a time: every contact of the store, plus the list's contacts never
 * reached (pending), with `replied_at` from the webhook's events and each row's source (file, name,
 * phone as written) from the listing.
 */
export function reportRowsFor(states: ContactStates, listing: ContactListing, replies: ReadonlyMap<string, string>): Iterable<ReportRow> {
  const sources = listingCursor(listing);
  return reportRowsOf(states, { replies, pendingPhones: sources.pending(states.unseenAt(listing)), pendingUnseen: true, sources });
}

/**
 * report.csv's text straight from the states' report-row source (report/column-csv.ts), the same bytes
 * as `reportRowsFor`'s rows written by `writeReport`; undefined when the layout is not one it writes
 * (the list's own columns, the spreadsheet form). `count` is told each row.
 */
export function reportCsvFor(
  states: ContactStates,
  listing: ContactListing,
  replies: ReadonlyMap<string, string>,
  layout: ReportLayout,
  more: { count?: () => void; armOf?: (phone: string) => string | undefined } = {},
): Iterable<Uint8Array> | undefined {
  if (!columnCsvFits(layout)) return undefined;
  const sources = listingCursor(listing);
  const pending = reportRowsOf(new Map(), { replies, pendingPhones: sources.pending(states.unseenAt(listing)), pendingUnseen: true, sources });
  return columnCsvChunks(states, { sources, listed: listing.columns(), replies, pending, layout, ...more });
}

/** An experiment's arm of each phone (report.csv's `arm` column, as `withArms` sets it). */
function armsOf(job: Parameters<typeof armFor>[1], winner: string | undefined): (phone: string) => string | undefined {
  return (phone) => armFor(phone, job, winner);
}

/**
 * The listing's rows looked up in the order the state's rows come (mostly the list's): the next
 * position is tried first, the listing's index only when it is not the one. `pending` yields the
 * listing's contacts at the positions given (those with no state, `ContactStates.unseenAt`).
 */
function listingCursor(listing: ContactListing) {
  const phones = listing.phoneColumn();
  let next = 0;
  let last: ListedContact | undefined;
  const byNumber = (n: number, phone: string): ListedContact | undefined => {
    if (next < phones.length && phones[next] === n && !listing.isOdd(next)) {
      next += 1;
      return listing.at(next - 1);
    }
    return listing.get(phone);
  };
  return {
    get(phone: string): ListedContact | undefined {
      if (last !== undefined && last.phone === phone) return last;
      return byNumber(e164Number(phone), phone);
    },
    /** The same for a phone known by its number (a state's row in the columns). */
    byNumber(n: number): number | ListedContact | undefined {
      if (last !== undefined && last.phone === `+${n}`) return last;
      if (next < phones.length && phones[next] === n && !listing.isOdd(next)) {
        next += 1;
        return next - 1;
      }
      return listing.get(`+${n}`);
    },
    *pending(positions: Iterable<number>): Generator<ListedContact> {
      for (const i of positions) {
        const contact = listing.at(i);
        last = contact;
        yield contact;
      }
    },
  };
}

/** The number of an E.164 phone (`+`, then digits, no leading zero), NaN for any other text: no regular expression per row. */
function e164Number(phone: string): number {
  if (phone.length < 2 || phone.length > 16 || phone.charCodeAt(0) !== 43 || phone.charCodeAt(1) === 48) return Number.NaN;
  for (let i = 1; i < phone.length; i++) {
    const c = phone.charCodeAt(i);
    if (c < 48 || c > 57) return Number.NaN;
  }
  return Number(phone.slice(1));
}

/**
 * `report --columns`: the rows in the list's order, each with its row's own cells (the list streamed
 * again, nothing held per contact but the phones already written), then the store's contacts the
 * list no longer has.
 */
async function* rowsWithColumns(list: ContactList, store: StateStore, states: ReadonlyMap<string, ContactState>, replies: ReadonlyMap<string, string>): AsyncGenerator<ReportRow> {
  const written = new Set<string>();
  const { audience } = await import('../audience/index.js'); // the contact loader only when the list is read
  for await (const item of audience(list, { skipRows: await store.planRejects(list.job.name) }).items) {
    if (item.kind !== 'contact' || written.has(item.contact.phone)) continue;
    const { phone, line } = item.contact;
    written.add(phone);
    yield contactRow(phone, states.get(phone), listedOf(item.contact, list.job, { columns: true }), replies.get(phone), line);
  }
  for (const s of states.values()) if (!written.has(s.phone)) yield contactRow(s.phone, s, undefined, replies.get(s.phone));
}

/**
 * Contacts that are not done: failed, in doubt, never reached, or sent with an after-send step left
 * failed (a tag, the custom fields, the media). Zero means the job is done.
 */
export function contactsNotDone(summary: Summary): number {
  const sentWithStepsLeft = summary.afterSendFailed.contacts;
  return summary.byStatus.failed + summary.byStatus.in_doubt + (summary.inFlight ?? 0) + summary.byStatus.pending + sentWithStepsLeft;
}


/** The job, its state, its list's contacts and the replies. A job never run is an AppError that says to run it. */
export async function loadJobReport(jobPath: string, whole: StateStore, options: { columns?: boolean; now?: number; phonesOnly?: boolean } = {}): Promise<JobReport & { store: StateStore }> {
  const loaded = await loadJobIn(jobPath, whole, options.now ?? Date.now());
  const { job } = loaded;
  const store = whole.account(job.company_id);
  const view = await store.readJob(job.name);
  if (!view) {
    throw new AppError(`job "${job.name}" has no state in ${store.location}: run \`outreach run\` first (or pass the --state-dir or --store it ran with)`);
  }
  const { list, listing, problem } = await listingOf(loaded, store, { phonesOnly: options.phonesOnly === true });
  const withColumns = options.columns === true ? list : undefined;
  const headers = withColumns && (await listHeaders(withColumns));
  const replies = await repliesOf(store, view.states);
  const experiment = await experimentView(store, job, view.states, replies);
  let listOnlyPending: number | undefined;
  return {
    job,
    store,
    view,
    listing,
    // Counted when first read: report.csv, written from the columns, does not read it.
    get listOnlyPending(): number {
      listOnlyPending ??= countPending(listing, view.states);
      return listOnlyPending;
    },
    replies,
    ...(experiment && { experiment }),
    ...(loaded.followUp && { followUp: loaded.followUp }),
    headers: headers ?? [],
    ...(withColumns && { withColumns }),
    ...(problem !== undefined && { listProblem: problem }),
  };
}

/**
 * Rewrites the job's report.csv from its state now (after track or reconcile changed it), the
 * list's contacts never reached included. Returns why the list could not be read, if it could not.
 */
export async function rewriteReport(store: StateStore, loaded: LoadedJob, states: ContactStates): Promise<string | undefined> {
  const { listing, problem } = await listingOf(loaded, store);
  const replies = await repliesOf(store, states);
  const winner = loaded.job.experiment ? (await experimentDecision(store, loaded.job.name))?.winner : undefined;
  await writeJobReport(store.jobFiles(loaded.job.name).report, states, { listing, replies }, loaded.job, winner);
  return problem;
}

/**
 * Writes the job's report.csv from its states, the list's contacts never reached included, an
 * experiment's arm from `winner`: from the states' report-row source (report/column-csv.ts) when the
 * layout fits it, else row by row (`writeReport`); the same bytes either way.
 */
export async function writeJobReport(
  file: string,
  states: ContactStates,
  of: { listing: ContactListing; replies: ReadonlyMap<string, string> },
  job: Pick<Job, 'name' | 'experiment' | 'message' | 'channels'>,
  winner: string | undefined,
): Promise<void> {
  const { experiment } = job;
  const layout = { variants: job.message.variants.length > 0, arms: experiment !== undefined, numbers: job.channels.length > 1 };
  const tested = experiment && { name: job.name, experiment };
  const text = reportCsvFor(states, of.listing, of.replies, layout, tested ? { armOf: armsOf(tested, winner) } : {});
  if (text) return writeFileAtomic(file, text);
  const all = reportRowsFor(states, of.listing, of.replies);
  await writeReport(file, tested ? withArms(all, tested, winner) : all, 'csv', layout);
}

/** The list's usable contacts (the store's listing when it is of the list as it is). A list that is gone or unreadable gives none, with the reason. */
async function listingOf(loaded: LoadedJob, store: StateStore, options: ListingReadOptions = {}): Promise<{ list?: ContactList; listing: ContactListing; problem?: string }> {
  const list = await contactListOf(loaded).catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
  if (typeof list === 'string') return { listing: new ContactListing(), problem: list };
  const { listing, problem } = await listedContacts(list, store, options);
  return problem === undefined ? { list, listing } : { listing, problem };
}

/** The headers of the list's own columns, in first-seen order: a read of the list that keeps only them. */
async function listHeaders(list: ContactList): Promise<string[]> {
  const headers = new Set<string>();
  const { audience } = await import('../audience/index.js'); // the contact loader only when the list is read
  for await (const item of audience(list).items) if (item.kind === 'contact') for (const h of item.contact.row?.headers ?? []) headers.add(h);
  return [...headers];
}

export interface JobStatus {
  job: string;
  summary: Summary;
  replies: { count: number; rate: number };
  /** Sent → delivered → read → replied, and the delivery failures by reason (as far as `track` has read). */
  funnel: Funnel;
  notDone: number;
  listProblem?: string;
  /** Deferred contacts by reason, with when the first may go. */
  deferred: DeferredGroup[];
  /** The messaging limit's room in the rolling 24 hours, across every job of the company. */
  messaging: MessagingRoom;
  /** Where the job was started from (the job file's host and path, as its state recorded them; for people). */
  startedFrom?: JobPlace;
  /** The run holding the job now, if one does: its requests without an answer yet are in flight (`summary.inFlight`), not in doubt. */
  running?: JobRunner;
  /** An experiment: its arms' counts and rates, and the decision once made. */
  experiment?: ExperimentView;
  /** A follow-up: its earlier job's outcomes and what it takes. */
  followUp?: FollowUpView;
  /** A pool of numbers: per number, sent and failed, and a drain in the last run. */
  numbers?: NumberStatus[];
}

/** Whether an in-doubt contact is a request of the running run still waiting for its answer (inFlightSince). */
export function inFlightOf(running: JobRunner): (s: InDoubtState) => boolean {
  return inFlightSince(running.since);
}

/** Counts by status, with replies, from the store (no platform); no row is made per contact. */
export async function jobStatus(jobPath: string, options: { store: StateStore; clock?: () => number }): Promise<JobStatus> {
  // Status counts the list's pending contacts from their phones alone: no other part of the listing is read.
  const { job, store, view, listOnlyPending, replies: repliedAt, listProblem, experiment, followUp } = await loadJobReport(jobPath, options.store, { now: (options.clock ?? Date.now)(), phonesOnly: true });
  const running = await store.runningBy(job.name);
  const replies = repliedAt.size;
  // A run whose process is gone has nothing in flight: its unanswered requests are in doubt.
  const live = running !== undefined && running.gone === undefined ? running : undefined;
  const { summary, funnel, deferred } = digestStates(view.states, { pending: listOnlyPending, replies: repliedAt, ...(live && { runSince: live.since }) });
  const sent = summary.byStatus.sent;
  const numbers = job.channels.length > 1 ? numbersStatus(job, view.states.values(), await lastRunNumbers(store.jobFiles(job.name).summary)) : undefined;
  return {
    job: job.name,
    summary,
    replies: { count: replies, rate: sent > 0 ? replies / sent : 0 },
    funnel,
    notDone: contactsNotDone(summary),
    ...(listProblem !== undefined && { listProblem }),
    deferred,
    messaging: await messagingRoom(store, job.limits.daily_unique_recipients, (options.clock ?? Date.now)()),
    ...(startedFrom(view.header) && { startedFrom: startedFrom(view.header) }),
    ...(running && { running }),
    ...(experiment && { experiment }),
    ...(followUp && { followUp }),
    ...(numbers && { numbers }),
  };
}

export interface JobReportOptions {
  store: StateStore;
  /** csv (default), json, or html: one self-contained page for people, beside report.csv. */
  format?: ReportFormat | 'html';
  out?: string;
  /** CSV for a spreadsheet in any locale: UTF-8 with BOM, `;` between cells. */
  excel?: boolean;
  /** Add the contact list's own columns: all (`true`) or these headers. */
  columns?: ReportColumnsOption;
  /** The time the HTML page says it was made. */
  clock?: () => number;
  /** The IANA zone the HTML page shows its times in (default: this machine's). */
  zone?: string;
  /** The locale of the HTML page's figures and times (default: none, figures grouped as in English). */
  locale?: string;
}

/** Streams one row per contact to `out` (default: the report file the store names, `.json` for JSON, `.html` for the page). */
export async function jobReport(
  jobPath: string,
  options: JobReportOptions,
): Promise<{ job: string; file: string; contacts: number; listProblem?: string; rejects?: { file: string; rows: number } }> {
  const format = options.format ?? 'csv';
  const report = await loadJobReport(jobPath, options.store, { columns: options.columns !== undefined && options.columns !== false, now: (options.clock ?? Date.now)() });
  const { job, listProblem, store } = report;
  const defaultFile = store.jobFiles(job.name).report;
  // The spreadsheet form goes beside report.csv, which stays as the run wrote it.
  const excel = format === 'csv' && options.excel === true;
  const file = options.out ?? (format === 'csv' ? (excel ? excelName(defaultFile) : defaultFile) : defaultFile.replace(/\.csv$/, `.${format}`));
  let contacts = 0;
  if (format === 'html') {
    await writeHtmlReport(file, report, store, (options.clock ?? Date.now)(), options.zone, options.locale);
    contacts = report.view.states.size + report.listOnlyPending;
  } else {
    const counted = async function* (rows: AsyncIterable<ReportRow>): AsyncGenerator<ReportRow> {
      for await (const row of rows) {
        contacts += 1;
        yield row;
      }
    };
    // The store's rows are counted without a promise per row.
    const countedSync = function* (rows: Iterable<ReportRow>): Generator<ReportRow> {
      for (const row of rows) {
        contacts += 1;
        yield row;
      }
    };
    const { view, listing, replies, withColumns } = report;
    const layout = { ...reportLayout(report, options), arms: job.experiment !== undefined, numbers: job.channels.length > 1 };
    const armOf = job.experiment ? armsOf({ name: job.name, experiment: job.experiment }, report.experiment?.decision?.winner) : undefined;
    const text = format === 'csv' && !withColumns ? reportCsvFor(view.states, listing, replies, layout, { count: () => (contacts += 1), ...(armOf && { armOf }) }) : undefined;
    if (text) {
      await writeFileAtomic(file, text);
      const rejects = excel ? await excelRejects(store.jobFiles(job.name).rejects) : undefined;
      return { job: job.name, file, contacts, ...(listProblem !== undefined && { listProblem }), ...(rejects && { rejects }) };
    }
    const plain = withColumns ? counted(rowsWithColumns(withColumns, store, view.states, replies)) : countedSync(reportRowsFor(view.states, listing, replies));
    const { experiment } = job;
    const rows = experiment ? withArms(plain, { name: job.name, experiment }, report.experiment?.decision?.winner) : plain;
    await writeReport(file, rows, format, layout);
  }
  const rejects = excel ? await excelRejects(store.jobFiles(job.name).rejects) : undefined;
  return { job: job.name, file, contacts, ...(listProblem !== undefined && { listProblem }), ...(rejects && { rejects }) };
}

/** `report.csv` → `report.xlsx.csv`: the spreadsheet form's name beside the plain one. */
function excelName(file: string): string {
  return file.replace(/(\.csv)?$/, '.xlsx.csv');
}

/** rejects.csv in the spreadsheet form, beside it (rejects.xlsx.csv). */
async function excelRejects(plain: string): Promise<{ file: string; rows: number }> {
  const file = excelName(plain);
  return { file, rows: await writeRejects(file, await readRejects(plain), { excel: true }) };
}
