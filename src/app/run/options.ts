/**
 * What a run is given (`RunJobOptions`: the store, the client, the command, the caller's hooks) and
 * what it holds once its job is open (`Running`), shared by the steps of run-job.ts and sends.ts.
 */
import type { Logger } from 'pino';
import type { ApiClient } from '../../api/index.js';
import type { BudgetHolder, CheckpointEvent, JobFiles, JobOwner, JobStore, StateStore } from '../../checkpoint/index.js';
import type { RateLimiter, RetryMode, RunStats } from '../../run/index.js';
import type { PlanLookups } from '../plan/index.js';
import type { RunSoFar } from './so-far.js';

export interface RunJobOptions {
  store: StateStore;
  api: ApiClient;
  command: 'run' | 'resume';
  /** Which earlier outcomes are taken up again (resume: retryable failures; --retry-in-doubt: in doubt too). */
  mode: RetryMode;
  /** Who runs it (the lock's content). */
  owner: Omit<JobOwner, 'startedAt' | 'command'>;
  /** Send even though the content changed since the job's state started. */
  forceChanged?: boolean;
  /** Abort to stop taking contacts; requests in flight finish. */
  signal?: AbortSignal;
  /** Abort to cut requests in flight (after a bounded wait). */
  cutSignal?: AbortSignal;
  clock?: () => number;
  /** Waits (retry backoffs, the provider's pair-rate wait); returns early when the signal aborts. Tests shorten it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  logger?: Logger;
  /** Before the first contact: how many contacts the list holds, and whether the job never ran before (a `resume` of it is its first run). */
  onStart?: (info: { contacts: number; files: JobFiles; firstRun: boolean }) => void;
  /** After each contact; `concurrencyBound` says when a fixed concurrency keeps the run below the asked rate. */
  onProgress?: (stats: RunStats, live: { concurrencyBound?: string }) => void;
  /** Once no more is sent, before a run the store stopped writes its last records (the progress ends there, so that they stay last). */
  onSendsOver?: () => void;
  /** A limiter of the caller's (tests); by default one at the job's rate. */
  limiter?: RateLimiter;
  /**
   * How often at most (wall ms) the run reads again what other processes write to the store (a STOP
   * through the receiver, `suppress add`, another job's first messages) before deciding a contact;
   * default 100. 0 reads it before every contact.
   */
  refreshEveryMs?: number;
  /** Told when the provider says a person stopped marketing messages (131050); the phone is already on the store's suppression list. */
  onOptedOut?: (phone: string, reason: string) => Promise<void>;
  /** Told each event of the send loop once it is durable (the metrics count first messages sent and the provider's refusals from them). */
  onRecorded?: (event: CheckpointEvent) => void;
}

/** What a run holds once its job is open. */
export interface Running {
  state: JobStore;
  limiter: RateLimiter;
  lookups: PlanLookups;
  clock: () => number;
  logger: Logger;
  /** The run's places in the store's messaging limit, when the job sets one. */
  holder?: BudgetHolder;
  /** Its counts and the contacts in flight, for the record a stop by the store leaves. */
  soFar: RunSoFar;
}
