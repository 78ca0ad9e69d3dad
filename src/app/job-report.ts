import { ContactListing, type ContactState, type JobView, type ListedContact, type StateStore } from '../checkpoint/index.js';
import { loadJob, resolveContactFiles, type Job } from '../job/index.js';
import { reportRowsOf, summarise, writeReport, type ReportFormat, type ReportRow, type Summary } from '../report/index.js';
import { AppError } from './errors.js';
import { countPending, listedContacts, sentContacts } from './listing.js';

/** A contact of the list, by key. */
export type Listed = ListedContact;

/**
 * The job's report rows, one at a time: every contact of the store, plus the list's contacts never
 * reached (pending), with `replied_at` from the webhook's events.
 */
export async function* jobReportRows(store: StateStore, states: ReadonlyMap<string, ContactState>, listed: Iterable<Listed> = []): AsyncGenerator<ReportRow> {
  const replies = await store.replies(sentContacts(states));
  yield* reportRowsOf(states, { replies, pendingPhones: listed });
}

/** Contacts that are not done: failed, in doubt, or never reached. Zero means the job is done. */
export function contactsNotDone(summary: Summary): number {
  return summary.byStatus.failed + summary.byStatus.in_doubt + summary.byStatus.pending;
}

/** What `status` and `report` read, locally and without the platform. */
interface JobReport {
  job: Job;
  view: JobView;
  /** The list's usable contacts (the pending ones are those the state has not seen). */
  listing: ContactListing;
  /** Why the list's contacts could not be counted as pending, when they could not. */
  listProblem?: string;
}

/** The job, its state, and its list's contacts. A job never run is an AppError that says to run it. */
async function loadJobReport(jobPath: string, store: StateStore): Promise<JobReport> {
  const loaded = await loadJob(jobPath);
  const { job } = loaded;
  const view = await store.readJob(job.name);
  if (!view) {
    throw new AppError(`job "${job.name}" has no state in ${store.location}: run \`outreach run\` first (or pass the --state-dir it ran with)`);
  }
  const listed = await resolveContactFiles(loaded).then(
    (files) => listedContacts({ job, files, namedColumns: loaded.namedColumns }, store),
    (err: unknown) => ({ listing: new ContactListing(), problem: err instanceof Error ? err.message : String(err) }),
  );
  return { job, view, listing: listed.listing, ...(listed.problem !== undefined && { listProblem: listed.problem }) };
}

export interface JobStatus {
  job: string;
  summary: Summary;
  replies: { count: number; rate: number };
  notDone: number;
  listProblem?: string;
}

/** Counts by status, with replies, from the store (no platform); no row is made per contact. */
export async function jobStatus(jobPath: string, options: { store: StateStore }): Promise<JobStatus> {
  const { job, view, listing, listProblem } = await loadJobReport(jobPath, options.store);
  const pending = countPending(listing, view.states);
  const replied = (await options.store.replies(sentContacts(view.states))).size;
  const summary = summarise(view.states, { pending });
  const sent = summary.byStatus.sent;
  return {
    job: job.name,
    summary,
    replies: { count: replied, rate: sent > 0 ? replied / sent : 0 },
    notDone: contactsNotDone(summary),
    ...(listProblem !== undefined && { listProblem }),
  };
}

/** Streams one row per contact to `out` (default: the report file the store names, `.json` for JSON). */
export async function jobReport(
  jobPath: string,
  options: { store: StateStore; format?: ReportFormat; out?: string },
): Promise<{ job: string; file: string; contacts: number; listProblem?: string }> {
  const format = options.format ?? 'csv';
  const { job, view, listing, listProblem } = await loadJobReport(jobPath, options.store);
  const defaultFile = options.store.jobFiles(job.name).report;
  const file = options.out ?? (format === 'json' ? defaultFile.replace(/\.csv$/, '.json') : defaultFile);
  let contacts = 0;
  async function* counted(): AsyncGenerator<ReportRow> {
    for await (const row of jobReportRows(options.store, view.states, listing)) {
      contacts += 1;
      yield row;
    }
  }
  await writeReport(file, counted(), format);
  return { job: job.name, file, contacts, ...(listProblem !== undefined && { listProblem }) };
}
