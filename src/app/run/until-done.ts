/**
 * `run --wait`: runs the job, and while contacts are deferred, waits for the first of them to be
 * due and runs it again, until nothing is deferred, the run stops, or the caller aborts the wait.
 * The clock and the sleep are injected, so a test waits for nothing.
 */
import { firstNotBefore, type DeferredGroup } from '../../report/index.js';
import { abortableSleep } from '../../run/index.js';
import { runJob } from './run-job.js';
import type { RunJobOptions } from './options.js';
import type { RunOutcome } from './outcome.js';
import type { Prepared } from '../prepare/index.js';

/** A wait is checked against the clock at least this often (a laptop that slept, a clock that jumped). */
const MAX_SLEEP_MS = 60_000;
/** Never run again sooner than this after a run (a not_before already past does not spin). */
const MIN_SLEEP_MS = 1_000;

export interface WaitInfo {
  /** When the next run starts (epoch ms). */
  until: number;
  deferred: DeferredGroup[];
  /** The run that left them deferred. */
  outcome: RunOutcome;
}

export interface RunUntilDoneOptions extends RunJobOptions {
  /** Default: a timer, ended early by `signal`. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Before each wait. */
  onWait?: (info: WaitInfo) => void;
  /** After each run but the last. */
  onRun?: (outcome: RunOutcome) => void;
}

export interface RunUntilDoneResult {
  /** The last run's outcome. */
  outcome: RunOutcome;
  /** How many times the job ran. */
  runs: number;
  /** The caller aborted during a wait (nothing was in flight). */
  waitAborted: boolean;
}

export async function runUntilDone(prepared: Prepared, options: RunUntilDoneOptions): Promise<RunUntilDoneResult> {
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  for (let runs = 1; ; runs++) {
    const started = clock();
    const outcome = await runJob(prepared, options);
    const next = firstNotBefore(outcome.deferred);
    // A deferral already due that this run did not take up belongs to a contact the run no longer sees
    // (its row left the list, or is rejected now): waiting for it would run again forever.
    const nothingDue = next !== undefined && next <= started && outcome.thisRun.sent === 0 && outcome.thisRun.deferred === 0;
    if (outcome.stopped || next === undefined || nothingDue || options.signal?.aborted) return { outcome, runs, waitAborted: false };
    options.onRun?.(outcome);
    const until = Math.max(next, clock() + MIN_SLEEP_MS);
    options.onWait?.({ until, deferred: outcome.deferred, outcome });
    while (clock() < until && !options.signal?.aborted) await sleep(Math.min(until - clock(), MAX_SLEEP_MS), options.signal);
    if (options.signal?.aborted) return { outcome, runs, waitAborted: true };
  }
}
