import type { JobFiles, JobStore } from '../../checkpoint/index.js';
import type { DeferredGroup, Summary } from '../../report/index.js';
import type { ExecuteResult, RunConcurrency, RunStats, StopReason } from '../../run/index.js';
import type { JobPlace } from '../load/index.js';
import { contactsNotDone, digestStates } from '../report/index.js';
import { countPending } from '../list/index.js';
import type { MissedWindows } from './missed-windows.js';
import type { MessagedByOtherJobs } from '../account/index.js';
import type { SettledList } from './open-and-settle.js';
import type { SendPass } from './send-pass.js';
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

/** What a run's outcome is made of, once its list is settled. */
export interface OutcomeParts {
  job: string;
  command: RunOutcome['command'];
  state: JobStore;
  result: ExecuteResult;
  pass: SendPass;
  settled: SettledList;
  replies: ReadonlyMap<string, string>;
  started: number;
  finished: number;
  firstRun: boolean;
  optedOut: string[];
  concurrency: RunConcurrency;
  /** The concurrency bound's sentence at the end, if the requests in flight held the run below its rate. */
  bound: string | undefined;
  messagedByOtherJobs: MessagedByOtherJobs;
  continuedFrom: JobPlace | undefined;
  missed: Pick<RunOutcome, 'missedWindows'>;
}

/** The run's outcome: this run's counts, the whole job's state after it, and why it stopped early, if it did. */
export function outcomeOf(parts: OutcomeParts): RunOutcome {
  const { result, settled, state } = parts;
  // Contacts of the list the state has not seen; the state's own pending contacts (reconciled as not sent) are counted by summarise.
  const listOnly = countPending(settled.listing, state.states);
  const { summary, deferred } = digestStates(state.states, { startedAt: new Date(parts.started), finishedAt: new Date(parts.finished), sentThisRun: result.stats.sent, pending: listOnly, replies: parts.replies });
  return {
    job: parts.job,
    command: parts.command,
    ...(result.stopReason && { stopped: { reason: result.stopReason, message: result.stopMessage ?? result.stopReason } }),
    ...(!result.stopReason && listStop(parts.pass)),
    ...(settled.incomplete && { listIncomplete: listIncomplete(settled.incomplete.lastRow) }),
    thisRun: { ...thisRunOf(result.stats, parts.pass), durationMs: parts.finished - parts.started },
    summary,
    pending: summary.byStatus.pending,
    rejected: settled.rejected,
    notDone: contactsNotDone(summary),
    deferred,
    files: state.files,
    optedOut: parts.optedOut,
    ...concurrencyOutcome(parts.concurrency, result.peakInFlight, parts.bound),
    messagedByOtherJobs: parts.messagedByOtherJobs,
    ...(state.tookOverFrom !== undefined && { tookOverFrom: state.tookOverFrom }),
    ...(parts.continuedFrom && { continuedFrom: parts.continuedFrom }),
    ...parts.missed,
    ...(parts.firstRun && { firstRun: true as const }),
  };
}

/** This run's counts (the contacts the list's read found already done counted with the executor's untouched ones). */
function thisRunOf(stats: RunStats, pass: SendPass): Omit<RunOutcome['thisRun'], 'durationMs'> {
  return { sent: stats.sent, failed: stats.failed, inDoubt: stats.inDoubt, skipped: stats.skipped, deferred: stats.deferred, alreadyDone: stats.untouched + pass.alreadyDone, warnings: stats.warnings };
}

/** What the report and the pending count lack when the list was not read to the end and no earlier whole read was kept. */
function listIncomplete(lastRow: { file: string; line: number } | undefined): string {
  return `the list was read up to ${lastRow ? `line ${lastRow.line} of ${lastRow.file}` : 'its start'} only: the report and the pending count leave out the rows after it (\`outreach status\` reads it whole)`;
}

/** Why the list stopped the run, if it did: too many rejects so far, or a row the loader could not read (the contacts before it were sent). */
function listStop(pass: SendPass): Pick<RunOutcome, 'stopped'> {
  if (pass.stoppedForRejects !== undefined) return { stopped: { reason: 'reject_ratio', message: `stopped: ${pass.stoppedForRejects}` } };
  if (pass.listError !== undefined) {
    const sent = 'the contacts before it were handled and are in the report';
    return { stopped: { reason: 'list_error', message: `stopped: ${pass.listError.message}; ${sent}: fix the file, then \`outreach resume\` goes on without sending anyone twice` } };
  }
  return {};
}
