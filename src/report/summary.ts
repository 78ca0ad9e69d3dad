import { count, decimal, percent } from '../locale/people.js';
import type { ContactState, ContactStatus, InDoubtState } from '../checkpoint/types.js';
import { actionLabel } from './action-label.js';
import { failureClassCounter, formatFailureClasses, type FailureClass } from './failure-classes.js';

export interface Summary {
  /** Contacts of the checkpoint, plus `pending` ones of the list it has not seen. */
  total: number;
  byStatus: Record<ContactStatus, number>;
  /** Per report action (`template`, `text+media`, `skip:<reason>` …). */
  byAction: Record<string, number>;
  durationMs?: number;
  sentThisRun?: number;
  /** Sent this run per second of this run. */
  ratePerSec?: number;
  /** The five most frequent errors of failed and in-doubt contacts. */
  topErrors: Array<{ error: string; count: number }>;
  /** Failed and in-doubt contacts by the class of the provider's refusal, with one example message each. */
  failureClasses: FailureClass[];
  /** Sent contacts that replied, and their share of the sent. */
  replies?: { count: number; rate: number };
  /**
   * Contacts whose request is on its way now (a run holds the job and has not had the answer yet):
   * counted here and not as in doubt. Set only while a run holds the job.
   */
  inFlight?: number;
  /** Contacts with an after-send step (media, a tag, the custom fields) not done, and the steps by name: `resume` repeats them. */
  afterSendFailed: { contacts: number; bySteps: Record<string, number> };
}

export interface SummaryOptions {
  startedAt?: Date | string;
  finishedAt?: Date | string;
  sentThisRun?: number;
  /** Phones that replied (to ISO time). */
  replies?: ReadonlyMap<string, string>;
  /** Contacts of the list not in the checkpoint yet. */
  pending?: number;
  /** While a run holds the job: which in-doubt contacts are its requests in flight (sending now, not in doubt). */
  inFlight?: (s: InDoubtState) => boolean;
}

const STATUSES: readonly ContactStatus[] = ['sent', 'failed', 'in_doubt', 'skipped', 'deferred', 'pending'];

/** Counts the job's state. Pure. */
export function summarise(states: ReadonlyMap<string, ContactState>, opts: SummaryOptions = {}): Summary {
  const counter = summaryCounter(opts);
  for (const s of states.values()) counter.add(s);
  return counter.result(states.size);
}

/** What `summarise` counts, one state at a time: a caller that reads the states once for several counts feeds each state here. */
export function summaryCounter(opts: SummaryOptions = {}): { add(s: ContactState, n?: number): void; result(contacts: number): Summary } {
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<ContactStatus, number>;
  const byAction: Record<string, number> = {};
  const errors = new Map<string, number>();
  let replied = 0;
  let inFlight = 0;
  const afterSendFailed = { contacts: 0, bySteps: {} as Record<string, number> };
  const classes = failureClassCounter();
  return {
    /** `n` states like `s` (a tally's count). */
    add(s, n = 1) {
      const action = actionLabel(s);
      if (action) byAction[action] = (byAction[action] ?? 0) + n;
      if (s.status === 'in_doubt' && opts.inFlight?.(s) === true) {
        inFlight += n;
        return;
      }
      byStatus[s.status] += n;
      if (s.status === 'failed' || s.status === 'in_doubt') {
        errors.set(s.error, (errors.get(s.error) ?? 0) + n);
        classes.add(s, n);
      }
      if (s.status !== 'sent') return;
      if (opts.replies?.has(s.phone)) replied += n;
      let notDone = false;
      for (const step in s.followups) {
        if (s.followups[step] === true) continue;
        notDone = true;
        afterSendFailed.bySteps[step] = (afterSendFailed.bySteps[step] ?? 0) + n;
      }
      if (notDone) afterSendFailed.contacts += n;
    },
    result(contacts) {
      const counts = { ...byStatus, pending: byStatus.pending + (opts.pending ?? 0) };
      return finish(
        {
          total: contacts + (opts.pending ?? 0),
          byStatus: counts,
          byAction,
          topErrors: [...errors]
            .map(([error, count]) => ({ error, count }))
            .sort((a, b) => b.count - a.count || a.error.localeCompare(b.error))
            .slice(0, 5),
          afterSendFailed,
          failureClasses: classes.result(),
          ...(opts.inFlight !== undefined && { inFlight }),
        },
        replied,
        opts,
      );
    },
  };
}

function finish(summary: Summary, replied: number, opts: SummaryOptions): Summary {
  const { byStatus } = summary;
  if (opts.startedAt !== undefined && opts.finishedAt !== undefined) {
    summary.durationMs = Math.max(0, toMs(opts.finishedAt) - toMs(opts.startedAt));
  }
  if (opts.sentThisRun !== undefined) {
    summary.sentThisRun = opts.sentThisRun;
    if (summary.durationMs) summary.ratePerSec = opts.sentThisRun / (summary.durationMs / 1000);
  }
  if (opts.replies) {
    summary.replies = { count: replied, rate: byStatus.sent > 0 ? replied / byStatus.sent : 0 };
  }
  return summary;
}

const LABELS: Record<ContactStatus, string> = {
  sent: 'sent',
  failed: 'failed',
  in_doubt: 'in doubt',
  skipped: 'skipped',
  deferred: 'deferred',
  pending: 'pending',
};

/** A few aligned lines for the terminal. */
/** The summary for people, its figures in `locale` (none: grouped as in English). */
export function formatSummary(summary: Summary, locale?: string): string {
  const p = { locale };
  const n = (x: number): string => count(p, x);
  const width = Math.max(...[summary.total, summary.inFlight ?? 0, ...Object.values(summary.byStatus)].map((x) => n(x).length));
  const lines = [`contacts    ${n(summary.total).padStart(width)}`];
  for (const status of STATUSES) {
    const count = summary.byStatus[status];
    if (status === 'deferred' && count === 0) continue;
    let line = `  ${LABELS[status].padEnd(10)}${n(count).padStart(width)}`;
    if (status === 'in_doubt' && count > 0) line += '   may have reached the platform: `outreach reconcile` checks them before any is sent again';
    if (status === 'failed' && count > 0) line += '   see report for why';
    lines.push(line);
    if (status === 'in_doubt' && summary.inFlight !== undefined && summary.inFlight > 0) {
      lines.push(`  ${'in flight'.padEnd(10)}${n(summary.inFlight).padStart(width)}   sending now: the running job has not had the answer yet`);
    }
  }
  const actions = Object.entries(summary.byAction).sort((a, b) => b[1] - a[1]);
  if (actions.length > 0) {
    lines.push(`actions     ${actions.map(([a, c]) => `${a} ${n(c)}`).join(', ')}`);
  }
  if (summary.durationMs !== undefined) {
    let line = `time        ${formatDuration(summary.durationMs, locale)}`;
    if (summary.sentThisRun !== undefined) line += `, ${n(summary.sentThisRun)} sent this run`;
    if (summary.ratePerSec !== undefined) line += ` (${formatRate(summary.ratePerSec, locale)})`;
    lines.push(line);
  }
  if (summary.afterSendFailed.contacts > 0) {
    const steps = Object.entries(summary.afterSendFailed.bySteps)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([step, count]) => `${stepName(step)} ${n(count)}`)
      .join(', ');
    lines.push(`after-send steps failed: ${n(summary.afterSendFailed.contacts)} (${steps}); resume repeats them`);
  }
  if (summary.replies) {
    lines.push(`replies     ${n(summary.replies.count)} (${percent(p, summary.replies.rate)} of sent)`);
  }
  lines.push(...formatFailureClasses(summary.failureClasses, locale));
  if (summary.topErrors.length > 0) {
    lines.push('top errors');
    const w = Math.max(...summary.topErrors.map((e) => n(e.count).length));
    for (const e of summary.topErrors) lines.push(`  ${n(e.count).padStart(w)}  ${e.error}`);
  }
  return lines.join('\n');
}

/** An after-send step for people: `custom fields`, `tag vip`, `media`. */
function stepName(step: string): string {
  if (step === 'custom_fields') return 'custom fields';
  return step.startsWith('tag:') ? `tag ${step.slice(4)}` : step;
}

/** "1.4s", "3m 46s", "25h 00m 00s"; a fraction in `locale` when given (1,4s in pt-BR). */
export function formatDuration(ms: number, locale?: string): string {
  if (ms < 60_000) return `${locale === undefined ? (ms / 1000).toFixed(1) : new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(ms / 1000)}s`;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}h ${String(m).padStart(2, '0')}m ${s}s` : `${m}m ${s}s`;
}

/** Per second, or per minute when under one a second. */
function formatRate(perSec: number, locale?: string): string {
  const one = (x: number) => (locale === undefined ? x.toFixed(1) : decimal({ locale }, x, 1));
  return perSec >= 1 || perSec === 0 ? `${one(perSec)}/s` : `${one(perSec * 60)}/min`;
}

function toMs(t: Date | string): number {
  return typeof t === 'string' ? Date.parse(t) : t.getTime();
}
