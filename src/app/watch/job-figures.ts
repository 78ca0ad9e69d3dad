import type { JobRunner, StateStore, StoredJob } from '../../checkpoint/index.js';
import type { JobPlace } from '../load/index.js';
import { jobStatus, type JobStatus, sendLimit } from '../report/index.js';
import { jobSource, type JobSource } from './job-source.js';
import type { RateMeter } from './rate-meter.js';
import { storeStatus } from './store-status.js';

/** What a job is doing, as a person asks it: running (where, since when), its run gone, finished, or idle with contacts not done. */
export type JobPhase =
  | { kind: 'running'; runner: JobRunner }
  | { kind: 'gone'; runner: JobRunner }
  | { kind: 'finished' }
  | { kind: 'idle'; notDone: number; nextAt?: string };

/** The rate a job sends at now, against the rate it asks (first messages a minute). */
export interface JobRate {
  /** Sent a minute, measured over `overMs` of the last minute while it runs; absent until measured, and while it does not run. */
  perMinute?: number;
  overMs: number;
  /** The most first messages a minute the job's rate lets through (its requests a minute over the requests a send takes at the least); absent without the job file. */
  askedPerMinute?: number;
  /** The job's rate.per_second (requests). */
  askedRequestsPerSecond?: number;
  /** Requests a send takes at the least (the message and its after-send steps). */
  requestsPerSend?: number;
}

/** A job's figures at one moment: `status`'s, with its phase, progress, rate and where they come from. */
export interface JobFigures {
  /** What the store seen whole reads it by (its name, or `name@company`). */
  key: string;
  name: string;
  company?: number;
  startedFrom?: JobPlace;
  /** The job file read (as `status` reads it), or the store alone and why. */
  from: { kind: 'job_file'; file: string } | { kind: 'store'; why: string };
  phase: JobPhase;
  status: JobStatus;
  /** Contacts handled of the total (pending and in flight are not), and when the rest should be: at the rate measured, else the rate asked while it runs. */
  progress: { done: number; total: number; eta?: { ms: number; by: 'measured' | 'asked' } };
  rate: JobRate;
  /** When the figures were read (ISO). */
  at: string;
}

/**
 * A stored job's figures now: `status`'s own (`jobStatus` over its job file, or the store's alone when
 * that file cannot be read here), the phase, the rate now from `meter`'s samples, the progress and ETA.
 */
export async function jobFigures(whole: StateStore, stored: StoredJob, options: { now: number; meter: RateMeter }): Promise<JobFigures> {
  const { now, meter } = options;
  const runner = await whole.runningBy(stored.key);
  let source: JobSource = await jobSource(stored, runner);
  let status: JobStatus | undefined;
  if (source.kind === 'job_file') {
    status = await jobStatus(source.loaded.jobFile, { store: whole, clock: () => now }).catch((err: unknown) => {
      source = { kind: 'store', why: `${source.kind === 'job_file' ? source.loaded.jobFile : 'its job file'}: ${err instanceof Error ? err.message : String(err)}` };
      return undefined;
    });
  }
  if (status === undefined) status = await storeStatus(whole, stored, runner, source.kind === 'store' ? source.why : '', now);
  const job = source.kind === 'job_file' ? source.loaded.job : undefined;
  const phase = phaseOf(status);
  const sent = status.summary.byStatus.sent;
  let measured: { perMinute?: number; overMs: number } = { overMs: 0 };
  if (phase.kind === 'running') measured = meter.sample(stored.key, now, sent);
  else meter.forget(stored.key);
  const limit = job && sendLimit(job, 60);
  const rate: JobRate = {
    ...measured,
    ...(limit && { askedPerMinute: limit.limitPerBucket, requestsPerSend: limit.requestsPerSend }),
    ...(job && { askedRequestsPerSecond: job.rate.per_second }),
  };
  const place = status.startedFrom ?? placeOf(stored);
  return {
    key: stored.key,
    name: stored.name,
    ...(stored.company !== undefined && { company: stored.company }),
    ...(place && { startedFrom: place }),
    from: source.kind === 'job_file' ? { kind: 'job_file', file: source.loaded.jobFile } : { kind: 'store', why: source.why },
    phase,
    status,
    progress: progressOf(status, phase, rate),
    rate,
    at: new Date(now).toISOString(),
  };
}

function placeOf(stored: StoredJob): JobPlace | undefined {
  if (stored.jobFile === undefined && stored.host === undefined) return undefined;
  return { ...(stored.host !== undefined && { host: stored.host }), ...(stored.jobFile !== undefined && { file: stored.jobFile }) };
}

/** Running while a live run holds it; gone when its holder's process ended; finished with nothing left to do; idle otherwise (with the first deferred time). Pure. */
export function phaseOf(status: Pick<JobStatus, 'running' | 'notDone' | 'deferred' | 'summary'>): JobPhase {
  const { running } = status;
  if (running !== undefined) return running.gone === undefined ? { kind: 'running', runner: running } : { kind: 'gone', runner: running };
  const waiting = status.summary.byStatus.deferred;
  if (status.notDone === 0 && waiting === 0) return { kind: 'finished' };
  const next = status.deferred.map((d) => d.notBefore).sort()[0];
  return { kind: 'idle', notDone: status.notDone + waiting, ...(next !== undefined && { nextAt: next }) };
}

/** Handled of the total, and the time the pending (and in-flight) ones should take at the rate measured, else at the rate asked while it runs. Pure. */
export function progressOf(status: Pick<JobStatus, 'summary'>, phase: JobPhase, rate: JobRate): JobFigures['progress'] {
  const { summary } = status;
  const left = summary.byStatus.pending + (summary.inFlight ?? 0);
  const progress = { done: Math.max(0, summary.total - left), total: summary.total };
  if (phase.kind !== 'running' || left === 0) return progress;
  if (rate.perMinute !== undefined && rate.perMinute > 0) return { ...progress, eta: { ms: Math.round((left / rate.perMinute) * 60_000), by: 'measured' } };
  if (rate.askedPerMinute !== undefined && rate.askedPerMinute > 0) return { ...progress, eta: { ms: Math.round((left / rate.askedPerMinute) * 60_000), by: 'asked' } };
  return progress;
}
