import { type Summary } from '../../report/index.js';
import { messagedByOtherJobsJson } from '../account/index.js';
import type { RunOutcome } from './outcome.js';
import { writeFileAtomic } from '../../files/atomic.js';

/** The run's outcome as one JSON object: `summary.json`, and what `run --json` prints. */
export function outcomeJson(outcome: RunOutcome) {
  const { thisRun } = outcome;
  return {
    job: outcome.job,
    command: outcome.command,
    stopped: outcome.stopped?.reason ?? null,
    stop_message: outcome.stopped?.message ?? null,
    this_run: {
      sent: thisRun.sent,
      failed: thisRun.failed,
      in_doubt: thisRun.inDoubt,
      skipped: thisRun.skipped,
      deferred: thisRun.deferred,
      already_done: thisRun.alreadyDone,
      warnings: thisRun.warnings,
      duration_ms: thisRun.durationMs,
    },
    summary: outcome.summary,
    pending: outcome.pending,
    rejected: outcome.rejected,
    deferred: outcome.deferred,
    top_errors: outcome.summary.topErrors,
    failures_by_class: outcome.summary.failureClasses,
    opted_out: outcome.optedOut,
    concurrency: {
      mode: outcome.concurrency.mode,
      limit: outcome.concurrency.limit,
      peak_in_flight: outcome.concurrency.peakInFlight,
      mean_latency_ms: outcome.concurrency.meanLatencyMs ?? null,
    },
    concurrency_bound: outcome.concurrencyBound ?? null,
    list_incomplete: outcome.listIncomplete ?? null,
    messaged_by_other_jobs: messagedByOtherJobsJson(outcome.messagedByOtherJobs),
    ...(outcome.firstRun && { first_run: true }),
    ...(outcome.tookOverFrom && { took_over_from: outcome.tookOverFrom }),
    ...(outcome.missedWindows && { missed_windows: { count: outcome.missedWindows.count, reason: outcome.missedWindows.reason, opened_at: outcome.missedWindows.openedAt, zone: outcome.missedWindows.zone ?? null } }),
    ...(outcome.numbers && {
      numbers: outcome.numbers.map((n) => ({ channel_id: n.channelId, sent: n.sent, failed: n.failed, per_second: n.perSecond, rate_reached_per_second: n.reachedPerSecond ?? null, drained: n.drained ?? null })),
    }),
    report_file: outcome.files.report,
    rejects_file: outcome.files.rejects,
  };
}

export async function writeSummary(file: string, outcome: RunOutcome): Promise<void> {
  await writeFileAtomic(file, [`${JSON.stringify(outcomeJson(outcome), null, 2)}\n`]);
}

/** What a run the store stopped writes to summary.json: why, the phones in flight, this run's counts, and the job's states as this process held them. */
export interface StoppedSummary {
  job: string;
  command: 'run' | 'resume';
  message: string;
  inFlight: string[];
  thisRun: { sent: number; failed: number; in_doubt: number; skipped: number; deferred: number; already_done: number; warnings: number; duration_ms: number };
  summary: Summary;
}

/**
 * summary.json of a run the store stopped, with the keys of a finished run's where it knows them
 * (`stopped` is "store"); the list's pending contacts are not counted (the store that keeps the
 * listing could not be read): `outreach status` counts them once the store is back.
 */
export async function writeStoppedSummary(file: string, stop: StoppedSummary): Promise<void> {
  const json = {
    job: stop.job,
    command: stop.command,
    stopped: 'store',
    stop_message: stop.message,
    in_flight: stop.inFlight,
    this_run: stop.thisRun,
    summary: stop.summary,
    pending: null,
    list_incomplete: 'the store stopped the run: the pending contacts of the list are not counted here (`outreach status` counts them once the store is back)',
  };
  await writeFileAtomic(file, [`${JSON.stringify(json, null, 2)}\n`]);
}
