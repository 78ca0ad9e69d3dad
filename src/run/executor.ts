import { setMaxListeners } from 'node:events';
import type { ApiClient } from '../api/index.js';
import type { CheckpointEvent, ContactState } from '../checkpoint/index.js';
import type { Contact, Reject } from '../contacts/index.js';
import type { Job } from '../job/index.js';
import type { Action, ChannelInfo, PlanContext } from '../plan/index.js';
import { abortableSleep, type ProviderStopReason, type SendContext } from './context.js';
import type { RateLimiter } from './limiter.js';
import { sendContact, type ContactResult, type RetryMode } from './send-contact.js';
import { emptyStats, failureRatio, failureRatioExceeded, tally, type RunStats } from './stats.js';

export type StopReason = 'auth' | 'failure_ratio' | 'interrupted' | ProviderStopReason;

export interface ExecuteOptions {
  api: ApiClient;
  job: Job;
  channel: ChannelInfo;
  contacts: AsyncIterable<Contact>;
  /** Each contact's state from the checkpoint (replayed), by E.164 phone. */
  prior: (phone: string) => ContactState | undefined;
  record: (event: CheckpointEvent) => Promise<void>;
  limiter: RateLimiter;
  mode: RetryMode;
  /** Requests in flight at most (workers). */
  concurrency: number;
  /** The planner's context for a contact at `now`; by default only the time (no window known). */
  planContext?: (contact: Contact, now: number) => PlanContext;
  /** Told each decision as it is made, before any request for it. */
  onDecided?: (contact: Contact, action: Action, context: PlanContext) => void;
  clock?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Abort to stop taking contacts (SIGINT/SIGTERM); in-flight requests finish. */
  stopSignal?: AbortSignal;
  /** Abort to cut in-flight requests (after the bounded wait of a shutdown). */
  requestSignal?: AbortSignal;
  onResult?: (contact: Contact, result: ContactResult, stats: RunStats) => void;
  onReject?: (reject: Reject, contact: Contact) => void;
  /** The provider says this person stopped marketing messages (131050): put the phone on the suppression list. */
  onOptedOut?: (phone: string, reason: string) => Promise<void>;
}

export interface ExecuteResult {
  stats: RunStats;
  stopReason?: StopReason;
  /** The token refusal, the provider's stop, or the failure ratio, in one sentence. */
  stopMessage?: string;
}

/**
 * The send loop: `concurrency` workers pull contacts from the stream (so the backlog stays bounded
 * whatever the list's size) and take each through `sendContact`. Stops on a refused token, on the
 * failure-ratio guard, or when `stopSignal` aborts.
 */
export async function execute(options: ExecuteOptions): Promise<ExecuteResult> {
  const stats = emptyStats();
  const stop = new AbortController();
  let stopReason: StopReason | undefined;
  let stopMessage: string | undefined;
  const halt = (reason: StopReason, message: string) => {
    if (stopReason) return;
    stopReason = reason;
    stopMessage = message;
    stop.abort(new Error(message));
  };
  const onOuterStop = () => halt('interrupted', 'interrupted: stopped taking contacts');
  if (options.stopSignal?.aborted) onOuterStop();
  options.stopSignal?.addEventListener('abort', onOuterStop, { once: true });

  // Every worker's request listens on these two signals (undici, the limiter, backoff sleeps).
  const requestSignal = options.requestSignal ?? new AbortController().signal;
  setMaxListeners(options.concurrency * 3 + 10, stop.signal, requestSignal);

  const ctx: SendContext = {
    api: options.api,
    job: options.job,
    channel: options.channel,
    limiter: options.limiter,
    record: options.record,
    clock: options.clock ?? Date.now,
    sleep: options.sleep ?? abortableSleep,
    random: options.random ?? Math.random,
    planContext: options.planContext ?? ((_contact, now) => ({ now })),
    ...(options.onDecided && { onDecided: options.onDecided }),
    stopSignal: stop.signal,
    requestSignal,
    onAuthRefused: (error) => halt('auth', `the token was refused (${error}); nothing more is sent: check OUTREACH_TOKEN or --token-file, then run resume`),
    onProviderStop: halt,
    onOptedOut: options.onOptedOut ?? (async () => undefined),
  };

  const iterator = options.contacts[Symbol.asyncIterator]();
  const worker = async () => {
    while (!stop.signal.aborted) {
      const next = await iterator.next();
      if (next.done) return;
      const contact = next.value;
      const result = await sendContact(ctx, contact, options.prior(contact.phone), options.mode);
      tally(stats, result);
      if (result.kind === 'rejected') options.onReject?.(result.reject, contact);
      options.onResult?.(contact, result, stats);
      if (failureRatioExceeded(stats, options.job.limits.max_failure_ratio)) {
        const { bad, done } = failureRatio(stats);
        halt('failure_ratio', `stopped: ${bad} of ${done} contacts failed, more than limits.max_failure_ratio ${options.job.limits.max_failure_ratio}`);
      }
    }
  };
  // A worker that throws (the checkpoint cannot be written) stops the others; the run waits for the
  // requests in flight before the error goes up, so none is left unwatched.
  const guarded = async () => {
    try {
      await worker();
    } catch (err) {
      stop.abort(err);
      throw err;
    }
  };
  let results: PromiseSettledResult<void>[];
  try {
    results = await Promise.allSettled(Array.from({ length: Math.max(1, options.concurrency) }, guarded));
  } finally {
    options.stopSignal?.removeEventListener('abort', onOuterStop);
    await iterator.return?.();
  }
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
  return { stats, ...(stopReason ? { stopReason, stopMessage } : {}) };
}
