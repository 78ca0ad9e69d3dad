import type { ContactState, JobView, SentContact, StateStore } from '../checkpoint/index.js';
import { loadJob, resolveContactFiles, type Job, type LoadedJob } from '../job/index.js';
import { deferredGroups, reportRows, summarise, writeReport, type DeferredGroup, type ReportFormat, type ReportRow, type Summary } from '../report/index.js';
import { audience } from './audience.js';
import { AppError } from './errors.js';
import { messagingRoom, type MessagingRoom } from './messaging-room.js';

/** A contact of the list, by key. */
export interface Listed {
  phone: string;
  line: number;
}

/**
 * The job's report rows: every contact of the store, plus the list's contacts never reached
 * (pending), with `replied_at` from the webhook's events.
 */
export async function jobReportRows(store: StateStore, states: ReadonlyMap<string, ContactState>, listed: Iterable<Listed> = []): Promise<ReportRow[]> {
  const sent = new Map<string, SentContact>();
  for (const s of states.values()) {
    if (s.status !== 'sent') continue;
    sent.set(s.phone, { sentAt: s.sentAt, conversationId: s.conversationId, ...(s.clientId !== undefined && { clientId: s.clientId }) });
  }
  const replies = await store.replies(sent);
  const pendingPhones = [...listed].filter((c) => !states.has(c.phone));
  return reportRows(states, { replies, pendingPhones });
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
}

/** The job, its state, and one report row per contact (pending ones included). A job never run is an AppError that says to run it. */
export async function loadJobReport(jobPath: string, store: StateStore): Promise<JobReport> {
  const loaded = await loadJob(jobPath);
  const { job } = loaded;
  const view = await store.readJob(job.name);
  if (!view) {
    throw new AppError(`job "${job.name}" has no state in ${store.location}: run \`outreach run\` first (or pass the --state-dir it ran with)`);
  }
  const { listed, problem } = await listedContacts(loaded, store);
  const rows = await jobReportRows(store, view.states, listed);
  return { job, view, rows, ...(problem !== undefined && { listProblem: problem }) };
}

/** The usable contacts of the list (less the rows a plan pass rejected), read locally. A list that is gone or unreadable gives none, with the reason. */
async function listedContacts(loaded: LoadedJob, store: StateStore): Promise<{ listed: Listed[]; problem?: string }> {
  const listed: Listed[] = [];
  try {
    const list = { job: loaded.job, files: await resolveContactFiles(loaded), namedColumns: loaded.namedColumns };
    const { items } = audience(list, { skipRows: await store.planRejects(loaded.job.name) });
    for await (const item of items) if (item.kind === 'contact') listed.push({ phone: item.contact.phone, line: item.contact.line });
  } catch (err) {
    return { listed: [], problem: err instanceof Error ? err.message : String(err) };
  }
  return { listed };
}

export interface JobStatus {
  job: string;
  summary: Summary;
  replies: { count: number; rate: number };
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
  const pending = rows.filter((r) => r.status === 'pending').length;
  const summary = summarise(view.states, { pending });
  const sent = summary.byStatus.sent;
  return {
    job: job.name,
    summary,
    replies: { count: replies, rate: sent > 0 ? replies / sent : 0 },
    notDone: contactsNotDone(summary),
    ...(listProblem !== undefined && { listProblem }),
    deferred: deferredGroups(view.states.values()),
    messaging: await messagingRoom(options.store, job.limits.daily_unique_recipients, (options.clock ?? Date.now)()),
  };
}

/** Writes one row per contact to `out` (default: the report file the store names, `.json` for JSON). */
export async function jobReport(
  jobPath: string,
  options: { store: StateStore; format?: ReportFormat; out?: string },
): Promise<{ job: string; file: string; contacts: number; listProblem?: string }> {
  const format = options.format ?? 'csv';
  const { job, rows, listProblem } = await loadJobReport(jobPath, options.store);
  const defaultFile = options.store.jobFiles(job.name).report;
  const file = options.out ?? (format === 'json' ? defaultFile.replace(/\.csv$/, '.json') : defaultFile);
  await writeReport(file, rows, format);
  return { job: job.name, file, contacts: rows.length, ...(listProblem !== undefined && { listProblem }) };
}
