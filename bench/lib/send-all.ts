/** `execute` as `outreach run` drives it: a real API client, a real checkpoint, contacts pulled from a stream. */
import { stat } from 'node:fs/promises';
import { createApiClient } from '../../src/api/index.js';
import { jobStatePaths, openJobJournal } from '../../src/checkpoint/file/index.js';
import type { Contact } from '../../src/contacts/index.js';
import { clientSettings } from '../../src/app/index.js';
import { execute, runConcurrency, type RateLimiter, type RunStats } from '../../src/run/index.js';
import { benchJob, stream, WBA } from './fixtures.js';
import { cpuSeconds, secondsSince } from './measure.js';
import type { SimProcess } from './sim-process.js';

export interface SendAllOptions {
  sim: SimProcess;
  /** The checkpoint's job name (one folder per name under `stateDir`). */
  jobName: string;
  contacts: readonly Contact[];
  /** Workers, and sockets of the API client; "auto": the job's defaults (adaptive, up to max_concurrency), as `outreach run` sizes them. */
  concurrency: number | 'auto';
  limiter: RateLimiter;
  stateDir: string;
  /** Written into the job (the limiter passed in is what holds the rate). */
  perSecond?: number;
}

export interface SendAllResult {
  stats: RunStats;
  /** From `execute`'s call to its end (the last fsync included). */
  seconds: number;
  /** CPU seconds this process used meanwhile. */
  cpuSeconds: number;
  /** Contacts whose checkpoint state is `sent` after the run. */
  sentInCheckpoint: number;
  journalBytes: number;
  journalEvents: number;
  journalFlushes: number;
  largestBatch: number;
  /** The most requests in flight at once, and the adaptive limit at the end. */
  peakInFlight: number;
  finalLimit: number;
  /** The most requests the runner let go (out of limiter.pace()) in any sliding 1,000 ms. */
  maxPacedInOneSecond: number;
  /** When the runner let each request go, in ms after the first (ascending). */
  pacedMs: number[];
  /** When the first answer came back (the controller's first sample), in ms after the first request left. */
  firstAnswerMs: number | undefined;
}

export async function sendAll(o: SendAllOptions): Promise<SendAllResult> {
  const job = benchJob(o.jobName, { per_second: o.perSecond ?? 1000, ...(o.concurrency === 'auto' ? {} : { concurrency: o.concurrency }) });
  const concurrency = runConcurrency(job.rate, Date.now);
  const api = createApiClient({ baseUrl: o.sim.url, token: o.sim.token, ...clientSettings(job) });
  const journalFile = jobStatePaths(o.stateDir, o.jobName).checkpoint;
  const checkpoint = await openJobJournal(journalFile);
  // Each request leaves right after pace(): its time there is the runner's own record of its departure.
  const paced: number[] = [];
  const pace = o.limiter.pace.bind(o.limiter);
  o.limiter.pace = async () => {
    await pace();
    paced.push(performance.now());
  };
  let firstAnswerAt: number | undefined;
  const observe = concurrency.controller.observe.bind(concurrency.controller);
  concurrency.controller.observe = (sample) => {
    firstAnswerAt ??= performance.now();
    observe(sample);
  };
  try {
    const cpu = cpuSeconds();
    const start = process.hrtime.bigint();
    const result = await execute({
      api,
      job,
      channel: WBA,
      contacts: stream(o.contacts),
      prior: (phone) => checkpoint.state.get(phone),
      record: (event) => checkpoint.record(event),
      limiter: o.limiter,
      mode: { retryFailed: false, retryInDoubt: false },
      concurrency: concurrency.ceiling,
      controller: concurrency.controller,
    });
    const seconds = secondsSince(start);
    const used = cpuSeconds() - cpu;
    if (result.stopReason) throw new Error(`the run stopped: ${result.stopMessage}`);
    let sentInCheckpoint = 0;
    for (const c of o.contacts) if (checkpoint.state.get(c.phone)?.status === 'sent') sentInCheckpoint++;
    const journal = checkpoint.stats();
    await checkpoint.close();
    return {
      stats: result.stats,
      seconds,
      cpuSeconds: used,
      sentInCheckpoint,
      journalBytes: (await stat(journalFile)).size,
      journalEvents: journal.appends,
      journalFlushes: journal.flushes,
      largestBatch: journal.largestBatch,
      peakInFlight: result.peakInFlight,
      finalLimit: concurrency.controller.limit(),
      maxPacedInOneSecond: mostInWindow(paced, 1000),
      pacedMs: paced.map((t) => t - (paced[0] ?? 0)),
      firstAnswerMs: firstAnswerAt === undefined || paced[0] === undefined ? undefined : firstAnswerAt - paced[0],
    };
  } finally {
    await checkpoint.close().catch(() => undefined);
    await o.limiter.stop();
    await api.close();
  }
}

/**
 * How long after `fromMs` the runner first let `count` requests go within one second: the earliest of the
 * ascending `times` at or after `fromMs` whose trailing window (t − windowMs, t] holds `count`, minus
 * `fromMs`; undefined when no window ever does.
 */
export function reachedAfter(times: readonly number[], fromMs: number, windowMs: number, count: number): number | undefined {
  for (let i = 0, j = 0; j < times.length; j++) {
    const t = times[j] ?? 0;
    while (t - (times[i] ?? 0) >= windowMs) i++;
    if (t >= fromMs && j - i + 1 >= count) return t - fromMs;
  }
  return undefined;
}

/** The most of the ascending `times` in any half-open window [t, t + windowMs). */
export function mostInWindow(times: readonly number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while ((times[j] ?? 0) - (times[i] ?? 0) >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}
