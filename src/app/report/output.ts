import { followUpNumbers, type FollowUpView } from '../follow-up/index.js';
import { createReadStream } from 'node:fs';
import { readProviderCode } from '../../api/provider-code.js';
import type { ContactListing, ContactState, JobView, StateStore } from '../../checkpoint/index.js';
import type { Job } from '../../job/index.js';
import type { ExperimentView } from '../experiment/index.js';
import type { ContactList } from '../load/index.js';
import { renderHtmlReport, unguard, type FailureGroup, type HtmlReportData, type ReportLayout } from '../../report/index.js';
import { providerClass, providerClassInfo } from '../../run/provider-classes.js';
import { AppError } from '../errors.js';
import { digestStates } from './states-digest.js';
import { lastRunNumbers, numbersStatus } from './pool-status.js';
import { bucketName, timeBuckets } from './time-buckets.js';
import { writeFileAtomic } from '../../files/atomic.js';

/** What `status` and `report` read, locally and without the platform: no row object per contact is held. */
export interface JobReport {
  job: Job;
  view: JobView;
  /** The list's usable contacts, in list order (kept by the store between reads). */
  listing: ContactListing;
  /** Contacts of the list the state has not seen (the state's own pending ones are counted by summarise). */
  listOnlyPending: number;
  /** For each sent contact that wrote back, the time of its first reply. */
  replies: Map<string, string>;
  /** Why the list's contacts could not be counted as pending, when they could not. */
  listProblem?: string;
  /** The headers of the list's own columns, in order (read only with `columns`). */
  headers: string[];
  /** Read with `columns`: the contact list, for the rows with its own cells. */
  withColumns?: ContactList;
  /** An experiment: its arms' counts and rates, and the decision once made. */
  experiment?: ExperimentView;
  /** A follow-up: its earlier job's outcomes and what it takes. */
  followUp?: FollowUpView;
}

/** `report --columns`: every column of the list (`true`), or these headers. */
export type ReportColumnsOption = boolean | readonly string[];

/** In-doubt contacts the page lists (the rest are in report.csv). */
const IN_DOUBT_SHOWN = 200;
/** Examples per reject reason. */
const REJECT_EXAMPLES = 3;

/** The CSV's layout for a job report: Excel or not, the variant column when the job has variants, the list's own columns asked for. */
export function reportLayout(report: Pick<JobReport, 'job' | 'headers'>, options: { excel?: boolean; columns?: ReportColumnsOption }): ReportLayout {
  const { columns } = options;
  let sourceColumns: string[] = [];
  if (columns === true) sourceColumns = report.headers;
  else if (Array.isArray(columns)) {
    const byName = new Map(report.headers.map((h) => [h.trim().toLowerCase(), h]));
    sourceColumns = columns.map((name: string) => {
      const header = byName.get(name.trim().toLowerCase());
      if (header === undefined) {
        throw new AppError(`--columns: the contact list has no column "${name}" (its columns are: ${report.headers.join(', ')}); name one of them, or give --columns alone for all`);
      }
      return header;
    });
  }
  return { excel: options.excel === true, variants: report.job.message.variants.length > 0, sourceColumns };
}

/** Writes report.html for the job report: the page's numbers gathered here, drawn by report/html. */
export async function writeHtmlReport(file: string, report: JobReport, store: StateStore, now: number, zone?: string, locale?: string): Promise<void> {
  const data = await htmlReportData(report, store, now, zone);
  await writeFileAtomic(file, [renderHtmlReport(locale === undefined ? data : { ...data, locale })]);
}

/** Everything the page shows, from the job's state, its rows and its rejects file; times shown in `zone` (default: this machine's). */
export async function htmlReportData(report: JobReport, store: StateStore, now: number, zone: string = Intl.DateTimeFormat().resolvedOptions().timeZone): Promise<HtmlReportData> {
  const { job, view, replies: replied } = report;
  // One read of the states, keeping only what the page shows (a million contacts are not held as objects).
  const sent: number[] = [];
  const failed: ContactState[] = [];
  const deferredReasons: string[] = [];
  const inDoubt: Extract<ContactState, { status: 'in_doubt' }>[] = [];
  let inDoubtCount = 0;
  const { summary, funnel } = digestStates(view.states, { pending: report.listOnlyPending, replies: replied }, (s) => {
    if (s.status === 'sent') {
      const t = Date.parse(s.sentAt);
      if (!Number.isNaN(t)) sent.push(t);
    } else if (s.status === 'failed') failed.push(s);
    else if (s.status === 'deferred') deferredReasons.push(s.reason);
    else if (s.status === 'in_doubt') {
      inDoubtCount += 1;
      if (inDoubt.length < IN_DOUBT_SHOWN) inDoubt.push(s);
    }
  });
  const sends = timeBuckets(sent);
  const replies = timeBuckets(
    [...replied.values()].map((t) => Date.parse(t)).filter((t) => !Number.isNaN(t)),
    { minSeconds: 3600, maxBars: 96 },
  );
  return {
    job: job.name,
    generatedAt: new Date(now).toISOString(),
    zone,
    total: summary.total,
    byStatus: summary.byStatus,
    funnel: { sent: funnel.sent, delivered: funnel.delivered, read: funnel.read, replied: funnel.replied, failed: funnel.failed, tracked: funnel.tracked },
    sends: { buckets: sends.buckets, per: bucketName(sends.bucketSeconds), ...sendLimit(job, sends.bucketSeconds) },
    rejects: await rejectsOf(store.jobFiles(job.name).rejects),
    failures: [
      ...sendFailures(failed),
      ...funnel.failures.map((f): FailureGroup => ({ stage: 'delivery', className: f.class, code: f.code, label: f.label, count: f.count, example: f.example })),
    ],
    deferred: countBy(deferredReasons),
    suppressed: await suppressedOf(report, store),
    replies: { buckets: replies.buckets, per: bucketName(replies.bucketSeconds) },
    inDoubt: inDoubt.map((s) => ({
      phone: s.phone,
      ...(s.line !== undefined && { line: s.line }),
      ...(s.conversationId !== undefined && { conversationId: s.conversationId }),
      ...(s.clientId !== undefined && { clientId: s.clientId }),
      error: s.unresolved !== undefined ? `${s.error}; reconcile: ${s.unresolved}` : s.error,
    })),
    inDoubtMore: Math.max(0, inDoubtCount - IN_DOUBT_SHOWN),
    ...(await campaignParts(report, store)),
  };
}

/** The experiment's arms and decision, and the follow-ups' numbers, when the job has them. */
async function campaignParts(report: JobReport, store: StateStore): Promise<Pick<HtmlReportData, 'experiment' | 'followUps' | 'numbers'>> {
  const e = report.experiment;
  const followUps = await followUpNumbers(store, report.job.name);
  const numbers = report.job.channels.length > 1 ? numbersStatus(report.job, report.view.states.values(), await lastRunNumbers(store.jobFiles(report.job.name).summary)) : undefined;
  return {
    ...(numbers && { numbers }),
    ...(e && {
      experiment: {
        metric: e.metric,
        arms: e.arms,
        restWaiting: e.rest.waiting,
        ...(e.decision && { decision: { winner: e.decision.winner, by: e.decision.by, pValue: e.decision.p_value, decidedAt: e.decision.decided_at } }),
      },
    }),
    ...(followUps.length > 0 && { followUps }),
  };
}

/**
 * The job's contacts on the suppression list, each once, whatever put them there (by hand, an import,
 * a STOP reply, the provider's 131050 at send or at delivery): the list's entries that concern the job.
 */
async function suppressedOf(report: JobReport, store: StateStore): Promise<number> {
  const { view, listing } = report;
  let count = 0;
  for (const entry of (await store.suppressions()).entries()) {
    if (view.states.has(entry.phone) || listing.get(entry.phone) !== undefined) count += 1;
  }
  return count;
}

/**
 * The most sends the job's rate lets through in a bucket of `seconds`: its requests per bucket over the
 * requests a send takes at the least (the message, then one per tag and one for the custom fields of
 * after_send; a media message, retries and 429s take more), so the chart's line and its bars are both sends.
 */
export function sendLimit(job: Pick<JobReport['job'], 'rate' | 'after_send'>, seconds: number): Pick<HtmlReportData['sends'], 'limitPerBucket' | 'requestsPerBucket' | 'requestsPerSend'> {
  const requestsPerBucket = rateLimitPer(job.rate, seconds);
  const requestsPerSend = 1 + job.after_send.tags.length + (Object.keys(job.after_send.custom_fields).length > 0 ? 1 : 0);
  return { limitPerBucket: Math.floor(requestsPerBucket / requestsPerSend), requestsPerBucket, requestsPerSend };
}

/** The most requests the job's rate lets through in a bucket of `seconds` (per_minute caps whole minutes only). */
export function rateLimitPer(rate: { per_second: number; per_minute?: number | undefined }, seconds: number): number {
  const bySecond = rate.per_second * seconds;
  if (rate.per_minute === undefined || seconds < 60) return Math.round(bySecond);
  return Math.round(Math.min(bySecond, (rate.per_minute * seconds) / 60));
}

/** Failed sends grouped by the provider's code read from their error (class `other` when none). */
function sendFailures(states: readonly ContactState[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const s of states) {
    if (s.status !== 'failed') continue;
    const code = readProviderCode(s.error) ?? null;
    const key = String(code);
    const known = groups.get(key);
    if (known) known.count += 1;
    else {
      const c = providerClass(code ?? undefined);
      groups.set(key, { stage: 'send', className: c, code, label: code === null ? 'no provider code: see the error' : providerClassInfo(c).label, count: 1, example: s.error });
    }
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

function countBy(keys: readonly string[]): Array<{ reason: string; count: number }> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count);
}

/** rejects.csv read back for people: counts by reason and a few examples (cells shown as written there, less the formula guard). */
async function rejectsOf(file: string): Promise<HtmlReportData['rejects']> {
  const byReason = new Map<string, { reason: string; count: number; examples: Array<{ line: string; phone: string; detail: string }> }>();
  let total = 0;
  const { parse } = await import('csv-parse'); // only when the page is written
  try {
    const input = createReadStream(file);
    const records = input.pipe(parse({ columns: true, bom: true, relax_column_count: true, skip_empty_lines: true }));
    input.once('error', (err) => records.destroy(err)); // pipe() does not pass a read error on
    for await (const record of records as AsyncIterable<Record<string, string | undefined>>) {
      const reason = unguard(record.reason ?? '');
      total += 1;
      let group = byReason.get(reason);
      if (!group) byReason.set(reason, (group = { reason, count: 0, examples: [] }));
      group.count += 1;
      if (group.examples.length < REJECT_EXAMPLES) group.examples.push({ line: record.line ?? '', phone: unguard(record.raw_phone ?? ''), detail: unguard(record.detail ?? '') });
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { total: 0, byReason: [], problem: 'No rejects file yet: run `outreach plan` or `outreach run`.' };
    return { total: 0, byReason: [], problem: `rejects.csv could not be read: ${err instanceof Error ? err.message : String(err)}` };
  }
  return { total, byReason: [...byReason.values()].sort((a, b) => b.count - a.count) };
}
