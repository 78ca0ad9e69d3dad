import { setMaxListeners } from 'node:events';
import type { ApiClient } from '../api/index.js';
import type { CheckpointEvent, ContactState } from '../checkpoint/index.js';
import type { Contact, Reject } from '../contacts/index.js';
import type { Job } from '../job/index.js';
import type { Action, ChannelInfo, PlanContext } from '../plan/index.js';
import type { ConcurrencyController } from './concurrency.js';
import { abortableSleep, type ProviderStopReason, type SendContext } from './context.js';
import type { RateLimiter } from './limiter.js';
import type { SenderPool } from './sender-pool.js';
import { ownTimeMeter } from './own-time.js';
import type { ContactResult, RetryMode } from './contact-result.js';
import { sendContact } from './send-contact.js';
import { emptyStats, failureRatio, failureRatioExceeded, tally, type RunStats } from './stats.js';

/**
 * Why a run stopped before the end of its list (`reject_ratio`: the list's rows read so far were
 * rejected too often; `list_error`: a row of the list could not be read at all).
 */
export type StopReason = 'auth' | 'failure_ratio' | 'interrupted' | 'reject_ratio' | 'list_error' | ProviderStopReason;

export interface ExecuteOptions {
  api: ApiClient;
  job: Job;
  channel: ChannelInfo;
  contacts: AsyncIterable<Contact>;
  /** Each contact's state from the checkpoint (replayed), by E.164 phone. */
  prior: (phone: string) => ContactState | undefined;
  record: (event: CheckpointEvent) => Promise<void>;
  limiter: RateLimiter;
  /** A pool of numbers, each with its own limiter (run/sender-pool.ts); absent: one number, `channel` through `limiter`. */
  pool?: SenderPool;
  mode: RetryMode;
  /** Requests in flight at most (workers): the fixed number, or the ceiling of `controller`. */
  concurrency: number;
  /**
   * Sizes the workers while the run goes (rate.concurrency "auto"): it is fed each request's own time
   * on the wire and the kind of its answer, and the workers follow its limit (new ones start, extra
   * ones leave after their contact). Without it, `concurrency` workers run throughout.
   */
  controller?: ConcurrencyController;
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
  /** The most requests that were in flight at once. */
  peakInFlight: number;
  stopReason?: StopReason;
  /** The token refusal, the provider's stop, or the failure ratio, in one sentence. */
  stopMessage?: string;
}

/**
 * The send loop: workers pull contacts from the stream (so the backlog stays bounded whatever the
 * list's size) and take each through `sendContact`; there are `concurrency` of them, or as many as
 * the controller's limit when there is one. Stops on a refused token, on the failure-ratio guard, or
 * when `stopSignal` aborts.
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
  const { controller } = options;
  const flight = { now: 0, peak: 0 };
  let resize: () => void = () => undefined;

  const ctx: SendContext = {
    api: options.api,
    job: options.job,
    channel: options.channel,
    limiter: options.limiter,
    ...(options.pool && { pool: options.pool }),
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
    wire: {
      sent() {
        flight.now += 1;
        flight.peak = Math.max(flight.peak, flight.now);
      },
      ended(sample) {
        flight.now -= 1;
        if (sample && controller) {
          controller.observe(sample);
          resize();
        }
      },
    },
  };

  const iterator = options.contacts[Symbol.asyncIterator]();
  const pool = workerPool(() => (controller ? Math.min(options.concurrency, controller.limit()) : options.concurrency));
  const worker = async (leave: () => boolean) => {
    // Each worker measures its own time per request off the wire (run/own-time.ts): under "auto" it sizes the workers too.
    const meter = controller?.observeOwn ? ownTimeMeter(ctx) : undefined;
    while (!stop.signal.aborted && !leave()) {
      const next = await iterator.next();
      if (next.done) {
        pool.close();
        return;
      }
      const contact = next.value;
      meter?.start();
      const result = await sendContact(meter?.ctx ?? ctx, contact, options.prior(contact.phone), options.mode);
      tally(stats, result);
      if (result.kind === 'rejected') options.onReject?.(result.reject, contact);
      options.onResult?.(contact, result, stats);
      const own = meter?.end();
      if (own) controller?.observeOwn?.(own);
      if (failureRatioExceeded(stats, options.job.limits.max_failure_ratio)) {
        const { bad, done } = failureRatio(stats);
        halt('failure_ratio', `stopped: ${bad} of ${done} contacts failed, more than limits.max_failure_ratio ${options.job.limits.max_failure_ratio}`);
      }
    }
  };
  // A worker that throws (the checkpoint cannot be written) stops the others; the run waits for the
  // requests in flight before the error goes up, so none is left unwatched.
  const guarded = async (leave: () => boolean) => {
    try {
      await worker(leave);
    } catch (err) {
      stop.abort(err);
      throw err;
    }
  };
  resize = () => {
    if (!stop.signal.aborted) pool.grow(guarded);
  };
  let failure: unknown;
  try {
    pool.grow(guarded);
    failure = await pool.done();
  } finally {
    options.stopSignal?.removeEventListener('abort', onOuterStop);
    await iterator.return?.();
  }
  if (failure !== undefined) throw failure;
  return { stats, peakInFlight: flight.peak, ...(stopReason ? { stopReason, stopMessage } : {}) };
}

/**
 * The workers of a run, as many as `limit()` says (at least one): `grow` starts the missing ones;
 * each worker is handed `leave`, which it calls between two contacts and which says (and counts at
 * once, so two workers never both take the last place out) whether it is one too many; `done` resolves
 * once every worker has ended, with the first error one threw (undefined when none did). Once the
 * list has ended (`close`) or the last worker ends, no new one starts: a worker started then would
 * only find the list's end, once per answer of the requests still in flight.
 */
function workerPool(limit: () => number) {
  let running = 0;
  let finished = false;
  let closed = false;
  let failure: { error: unknown } | undefined;
  let settle: (failure: unknown) => void = () => undefined;
  const done = new Promise<unknown>((resolve) => (settle = resolve));
  const wanted = () => Math.max(1, limit());
  return {
    grow(work: (leave: () => boolean) => Promise<void>) {
      while (!finished && !closed && running < wanted()) {
        running += 1;
        let left = false;
        // A worker that leaves is one too many: `running` stays at least 1 after it.
        const leave = () => {
          if (running <= wanted()) return false;
          running -= 1;
          left = true;
          return true;
        };
        const end = () => {
          if (left) return;
          running -= 1;
          if (running === 0) {
            finished = true;
            settle(failure?.error);
          }
        };
        work(leave).then(end, (error: unknown) => {
          failure ??= { error };
          end();
        });
      }
    },
    close() {
      closed = true;
    },
    done: () => done,
  };
}
