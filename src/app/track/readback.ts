import type { Logger } from 'pino';
import type { ApiClient } from '../../api/index.js';
import type { JobOwner, JobStore, StateStore } from '../../checkpoint/index.js';
import type { LoadedJob } from '../../job/index.js';
import { createRateLimiter, type LimiterOptions, type RateLimiter } from '../../run/index.js';
import { AppError } from '../errors.js';
import { rewriteReport } from '../report/index.js';
import { loadList } from '../list/index.js';
import { platformReads, type PlatformReads } from './platform-reads.js';
import type { ContactList } from '../load/index.js';
import { silentLogger } from '../silent-logger.js';

/** What `track` and `reconcile` share: the platform, the store, and who holds the job meanwhile. */
export interface ReadbackOptions {
  store: StateStore;
  api: ApiClient;
  /** Who reads it back (the lock's content). */
  owner: Omit<JobOwner, 'startedAt' | 'command'>;
  clock?: () => number;
  logger?: Logger;
  /** Abort to stop between requests. */
  signal?: AbortSignal;
  /** A limiter of the caller's (tests); by default one at the job's read rate (`track.per_second`). */
  limiter?: RateLimiter;
  /** Makes the limiter of the reads (tests see which rate it is asked for); by default `createRateLimiter`. */
  createLimiter?: (options: LimiterOptions) => RateLimiter;
}

export interface Readback {
  loaded: LoadedJob;
  /** The job's company's part of the store. */
  store: StateStore;
  list: ContactList;
  state: JobStore;
  reads: PlatformReads;
  clock: () => number;
  logger: Logger;
}

/** The pace of the reads of `track` and `reconcile`: `track.per_second`, whatever the job's rate of messages. */
export function readRate(job: Pick<LoadedJob['job'], 'track'>): LimiterOptions {
  return { perSecond: job.track.per_second };
}

/**
 * Loads the job, takes its lock (a run of the same job meanwhile is refused, and so is this while
 * one runs), and gives `use` the job's state and the platform's reads through a limiter at the
 * job's read rate; then rewrites report.csv from the state as `use` left it. A job never run is an
 * AppError that says to run it.
 */
export async function withReadback<T>(jobPath: string, command: 'track' | 'reconcile', options: ReadbackOptions, use: (r: Readback) => Promise<T>): Promise<T> {
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? silentLogger();
  const { loaded, ...list } = await loadList(jobPath, options.store, clock());
  const { job } = loaded;
  const store = options.store.account(job.company_id);
  if (!(await store.readJob(job.name))) {
    throw new AppError(`job "${job.name}" has no state in ${store.location}: run \`outreach run\` first (or pass the --state-dir or --store it ran with)`);
  }
  const state = await store.openJob(job.name, { ...options.owner, startedAt: new Date(clock()).toISOString(), command });
  // Reads send nothing: they go at their own pace, not behind the job's rate of messages.
  const limiter = options.limiter ?? (options.createLimiter ?? createRateLimiter)(readRate(job));
  try {
    const knownClients = new Map<string, string>();
    for (const s of state.states.values()) if (s.clientId !== undefined) knownClients.set(s.clientId, s.phone);
    const reads = platformReads(options.api, limiter, { knownClients, ...(options.signal && { signal: options.signal }) });
    const result = await use({ loaded, store, list, state, reads, clock, logger });
    const problem = await rewriteReport(store, loaded, state.states);
    if (problem !== undefined) logger.warn({ problem }, 'report.csv lists no pending contacts: the contact list could not be read');
    return result;
  } finally {
    if (!options.limiter) await limiter.stop().catch(() => undefined);
    await state.close().catch(() => undefined);
  }
}
