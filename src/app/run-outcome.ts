import type { JobFiles } from '../checkpoint/index.js';
import type { DeferredGroup, Summary } from '../report/index.js';
import type { RunConcurrency, StopReason } from '../run/index.js';
import type { JobPlace } from './content-guard.js';
import type { MissedWindows } from './missed-windows.js';
import type { MessagedByOtherJobs } from './other-jobs.js';
import type { PoolNumberFigures } from './sender-pool.js';

/** What a run or a resume did, and where the whole job stands after it. */
export interface RunOutcome {
  job: string;
  command: 'run' | 'resume';
  /** Why the run stopped before the end of the list, if it did. */
  stopped?: { reason: StopReason; message: string };
  thisRun: { sent: number; failed: number; inDoubt: number; skipped: number; deferred: number; alreadyDone: number; warnings: number; durationMs: number };
  /** The whole job's state after this run. */
  summary: Summary;
  /** Contacts of the list never reached. */
  pending: number;
  /** Rows in rejects.csv. */
  rejected: number;
  /** Failed, in doubt or pending: zero when the job is done. */
  notDone: number;
  /** Deferred contacts by reason, with when the first may go (a later run, or `run --wait`, sends them then). */
  deferred: DeferredGroup[];
  files: JobFiles;
  /** Phones the provider refused because the person stopped marketing messages (131050) in this run. */
  optedOut: string[];
  /** Requests in flight: how they were sized, the limit at the end, the most at once, and the mean answer time. */
  concurrency: { mode: 'auto' | 'fixed'; limit: number; peakInFlight: number; meanLatencyMs?: number };
  /** Set when the run did not read its list to the end and no earlier whole read was kept: what the report and pending count lack. */
  listIncomplete?: string;
  /** Set when the requests in flight kept the run below the asked rate ("concurrency-bound: 127/s of 1000/s asked; use rate.concurrency auto"). */
  concurrencyBound?: string;
  /** Contacts of the list this run took up that other jobs of the state folder messaged lately, which jobs, and when. */
  messagedByOtherJobs: MessagedByOtherJobs;
  /** The owner whose hold had lapsed (its process gone, or its lease ended) when this run took the job over. */
  tookOverFrom?: { host: string; pid: number };
  /** The job was started from another job file (another path or host): this run continued it. */
  continuedFrom?: JobPlace;
  /** Contacts deferred for quiet hours again after their window opened and closed since the run that deferred them: the schedule misses the window. */
  missedWindows?: MissedWindows;
  /** A pool of numbers: per number, in the job's order, this run's first messages sent and failed, its rate, and when and why it was drained. */
  numbers?: PoolNumberFigures[];
  /** The job had never run before this one: a `resume` of it had nothing to resume and sent the list as a first run. */
  firstRun?: true;
}

/** The outcome's account of the requests in flight. */
export function concurrencyOutcome(c: RunConcurrency, peakInFlight: number, bound: string | undefined): Pick<RunOutcome, 'concurrency' | 'concurrencyBound'> {
  const mean = c.controller.meanLatencyMs();
  return {
    concurrency: { mode: c.mode, limit: c.controller.limit(), peakInFlight, ...(mean !== undefined && { meanLatencyMs: Math.round(mean) }) },
    ...(bound !== undefined && { concurrencyBound: bound }),
  };
}
