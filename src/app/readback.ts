import type { Logger } from 'pino';
import type { ApiClient } from '../api/index.js';
import type { JobOwner, JobStore, StateStore } from '../checkpoint/index.js';
import type { LoadedJob } from '../job/index.js';
import { createRateLimiter, type RateLimiter } from '../run/index.js';
import { AppError } from './errors.js';
import { rewriteReport } from './job-report.js';
import { loadList } from './listed.js';
import { platformReads, type PlatformReads } from './platform-reads.js';
import type { ContactList } from './prepare.js';
import { silentLogger } from './silent-logger.js';

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
  /** A limiter of the caller's (tests); by default one at the job's rate. */
  limiter?: RateLimiter;
}

export interface Readback {
  loaded: LoadedJob;
  list: ContactList;
  state: JobStore;
  reads: PlatformReads;
  clock: () => number;
  logger: Logger;
}

/**
 * Loads the job, takes its lock (a run of the same job meanwhile is refused, and so is this while
 * one runs), and gives `use` the job's state and the platform's reads through a limiter at the
 * job's rate; then rewrites report.csv from the state as `use` left it. A job never run is an
 * AppError that says to run it.
 */
export async function withReadback<T>(jobPath: string, command: 'track' | 'reconcile', options: ReadbackOptions, use: (r: Readback) => Promise<T>): Promise<T> {
  const { store } = options;
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? silentLogger();
  const { loaded, ...list } = await loadList(jobPath, store, clock());
  const { job } = loaded;
  if (!(await store.readJob(job.name))) {
    throw new AppError(`job "${job.name}" has no state in ${store.location}: run \`outreach run\` first (or pass the --state-dir or --store it ran with)`);
  }
  const state = await store.openJob(job.name, { ...options.owner, startedAt: new Date(clock()).toISOString(), command });
  const limiter = options.limiter ?? createRateLimiter({ perSecond: job.rate.per_second, ...(job.rate.per_minute ? { perMinute: job.rate.per_minute } : {}) });
  try {
    const knownClients = new Map<string, string>();
    for (const s of state.states.values()) if (s.clientId !== undefined) knownClients.set(s.clientId, s.phone);
    const reads = platformReads(options.api, limiter, { knownClients, ...(options.signal && { signal: options.signal }) });
    const result = await use({ loaded, list, state, reads, clock, logger });
    const problem = await rewriteReport(store, loaded, state.states);
    if (problem !== undefined) logger.warn({ problem }, 'report.csv lists no pending contacts: the contact list could not be read');
    return result;
  } finally {
    if (!options.limiter) await limiter.stop().catch(() => undefined);
    await state.close().catch(() => undefined);
  }
}
