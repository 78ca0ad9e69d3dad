import type { ContactState, JobView, StateStore } from '../checkpoint/index.js';
import { loadJob, resolveContactFiles, type Job, type LoadedJob } from '../job/index.js';
import { deferredGroups, reportRows, summarise, writeReport, type DeferredGroup, type ReportFormat, type ReportRow, type Summary } from '../report/index.js';
import { audience } from './audience.js';
import { AppError } from './errors.js';
import { messagingRoom, type MessagingRoom } from './messaging-room.js';
import { funnelOf, type Funnel } from './funnel.js';
import { listedOf, type Listed } from './listed.js';
import { repliesOf } from './replies.js';
import { reportLayout, writeHtmlReport, type ReportColumnsOption } from './report-output.js';

export type { Listed } from './listed.js';

/**
 * The job's report rows: every contact of the store, plus the list's contacts never reached
 * (pending), with `replied_at` from the webhook's events.
 */
export async function jobReportRows(store: StateStore, states: ReadonlyMap<string, ContactState>, listed: Iterable<Listed> = []): Promise<ReportRow[]> {
  const replies = await repliesOf(store, states);
  const sources = new Map<string, Listed>();
  for (const c of listed) if (!sources.has(c.phone)) sources.set(c.phone, c);
  const pendingPhones = [...sources.values()].filter((c) => !states.has(c.phone));
  return reportRows(states, { replies, pendingPhones, sources });
}

/**
 * Contacts that are not done: failed, in doubt, never reached, or sent with an after-send step left
 * failed (a tag, the custom fields, the media). Zero means the job is done.
 */
export function contactsNotDone(summary: Summary): number {
  const sentWithStepsLeft = summary.afterSendFailed.contacts;
  return summary.byStatus.failed + summary.byStatus.in_doubt + summary.byStatus.pending + sentWithStepsLeft;
}

/** What `status` and `report` read, locally and without the platform. */
export interface JobReport {
  job: Job;
  view: JobView;
  rows: ReportRow[];
  /** Why the list's contacts could not be counted as pending, when they could not. */
  listProblem?: string;
  /** The headers of the list's own columns, in order (read only with `columns`). */
  headers: string[];
}

/** The job, its state, and one report row per contact (pending ones included). A job never run is an AppError that says to run it. */
export async function loadJobReport(jobPath: string, store: StateStore, options: { columns?: boolean } = {}): Promise<JobReport> {
  const loaded = await loadJob(jobPath);
  const { job } = loaded;
  const view = await store.readJob(job.name);
  if (!view) {
    throw new AppError(`job "${job.name}" has no state in ${store.location}: run \`outreach run\` first (or pass the --state-dir it ran with)`);
  }
  const { listed, headers, problem } = await listedContacts(loaded, store, options.columns === true);
  const rows = await jobReportRows(store, view.states, listed);
  return { job, view, rows, headers, ...(problem !== undefined && { listProblem: problem }) };
}

/**
 * Rewrites the job's report.csv from its state now (after track or reconcile changed it), the
 * list's contacts never reached included. Returns why the list could not be read, if it could not.
 */
export async function rewriteReport(store: StateStore, loaded: LoadedJob, states: ReadonlyMap<string, ContactState>): Promise<string | undefined> {
  const { listed, problem } = await listedContacts(loaded, store, false);
  const rows = await jobReportRows(store, states, listed);
  await writeReport(store.jobFiles(loaded.job.name).report, rows, 'csv', { variants: loaded.job.message.variants.length > 0 });
  return problem;
}

/** The usable contacts of the list (less the rows a plan pass rejected), read locally. A list that is gone or unreadable gives none, with the reason. */
async function listedContacts(loaded: LoadedJob, store: StateStore, columns: boolean): Promise<{ listed: Listed[]; headers: string[]; problem?: string }> {
  const listed: Listed[] = [];
  const headers = new Set<string>();
  try {
    const list = { job: loaded.job, files: await resolveContactFiles(loaded), namedColumns: loaded.namedColumns };
    const { items } = audience(list, { skipRows: await store.planRejects(loaded.job.name) });
    for await (const item of items) {
      if (item.kind !== 'contact') continue;
      listed.push(listedOf(item.contact, loaded.job, { columns }));
      if (columns) for (const h of item.contact.row?.headers ?? []) headers.add(h);
    }
  } catch (err) {
    return { listed: [], headers: [], problem: err instanceof Error ? err.message : String(err) };
  }
  return { listed, headers: [...headers] };
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
  /** The messaging limit's room in the rolling 24 hours, across every job of the state folder. */
  messaging: MessagingRoom;
}

/** Counts by status, with replies, from the store (no platform). */
export async function jobStatus(jobPath: string, options: { store: StateStore; clock?: () => number }): Promise<JobStatus> {
  const { job, view, rows, listProblem } = await loadJobReport(jobPath, options.store);
  const replies = rows.filter((r) => r.replied_at).length;
  const pending = rows.filter((r) => r.status === 'pending' && !view.states.has(r.phone)).length;
  const summary = summarise(view.states, { pending });
  const sent = summary.byStatus.sent;
  const repliedAt = new Map(rows.flatMap((r) => (r.replied_at !== undefined ? [[r.phone, r.replied_at] as const] : [])));
  return {
    job: job.name,
    summary,
    replies: { count: replies, rate: sent > 0 ? replies / sent : 0 },
    funnel: funnelOf(view.states.values(), repliedAt),
    notDone: contactsNotDone(summary),
    ...(listProblem !== undefined && { listProblem }),
    deferred: deferredGroups(view.states.values()),
    messaging: await messagingRoom(options.store, job.limits.daily_unique_recipients, (options.clock ?? Date.now)()),
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
}

/** Writes one row per contact to `out` (default: the report file the store names, `.json` for JSON, `.html` for the page). */
export async function jobReport(jobPath: string, options: JobReportOptions): Promise<{ job: string; file: string; contacts: number; listProblem?: string }> {
  const format = options.format ?? 'csv';
  const report = await loadJobReport(jobPath, options.store, { columns: options.columns !== undefined && options.columns !== false });
  const { job, rows, listProblem } = report;
  const defaultFile = options.store.jobFiles(job.name).report;
  const file = options.out ?? (format === 'csv' ? defaultFile : defaultFile.replace(/\.csv$/, `.${format}`));
  if (format === 'html') await writeHtmlReport(file, report, options.store, (options.clock ?? Date.now)());
  else await writeReport(file, rows, format, reportLayout(report, options));
  return { job: job.name, file, contacts: rows.length, ...(listProblem !== undefined && { listProblem }) };
}
