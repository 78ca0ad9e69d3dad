import type { ApiClient } from '../api/index.js';
import type { CheckpointEvent } from '../checkpoint/index.js';
import type { Job } from '../job/index.js';
import type { Contact } from '../contacts/index.js';
import type { Action, ChannelInfo, PlanContext } from '../plan/index.js';
import type { ConcurrencySample } from './concurrency.js';
import type { RateLimiter } from './limiter.js';
import type { SenderPool } from './sender-pool.js';

/** Everything one contact's send needs; built once per run by the executor. Clock and sleep are injected. */
export interface SendContext {
  api: ApiClient;
  job: Job;
  channel: ChannelInfo;
  limiter: RateLimiter;
  /**
   * A pool of numbers (a job's `channel_id` list): each contact goes from its own number, through that
   * number's limiter (`channel` and `limiter` above are then the contact's). Absent: one number.
   */
  pool?: SenderPool;
  /** Appends to the checkpoint; resolves once the event is durable. */
  record: (event: CheckpointEvent) => Promise<void>;
  clock: () => number;
  /** Waits `ms`, returning early (without error) when the signal aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  /** What the planner knows of this contact at `now` beyond the contact itself (window, and what later rules add). */
  planContext: (contact: Contact, now: number) => PlanContext;
  /** Aborted when the run stops taking work: no new request starts after it. */
  stopSignal: AbortSignal;
  /** Aborted when in-flight requests must be cut (after the bounded wait of a shutdown). */
  requestSignal: AbortSignal;
  /** Told each decision as it is made (before any request for it): the messaging budget counts what is about to go. */
  onDecided?: (contact: Contact, action: Action, context: PlanContext) => void;
  /** Called when the platform refuses the token: the whole run stops. */
  onAuthRefused: (error: string) => void;
  /** Called when the provider refuses a template or the account: the whole run stops after the requests in flight. */
  onProviderStop: (reason: ProviderStopReason, message: string) => void;
  /** Called when the provider says the person stopped marketing messages (131050): the phone is to be suppressed. */
  onOptedOut: (phone: string, reason: string) => Promise<void>;
  /**
   * Told when a request leaves (after its permit and its write-ahead record) and when it ends, with its
   * own time on the wire and what kind of answer it got (undefined when the run cut it): what sizes
   * the adaptive concurrency; and, before it leaves, how long it waited for the limiter (a permit, the
   * pacing gate), which is not the worker's own time (run/own-time.ts).
   */
  wire?: { sent(): void; ended(sample: ConcurrencySample | undefined): void; waited?(ms: number): void };
}

/** The contact's own number in the pool, as the context its requests go through; undefined when every number is drained. */
export function routeContact(ctx: SendContext, phone: string): { ctx: SendContext; moved: boolean } | undefined {
  const chosen = ctx.pool?.numberFor(phone);
  if (chosen === undefined) return undefined;
  return { ctx: { ...ctx, channel: chosen.number.channel, limiter: chosen.number.limiter }, moved: chosen.moved };
}

/** Why the provider's answer stops a whole run: a template refused for everyone, or the sending number or account blocked. */
export type ProviderStopReason = 'provider_template' | 'provider_account';

/** Most 429s one request may meet before its contact is left failed (retryable) for `resume`. */
export const MAX_RATE_LIMITED = 20;

/** A sleep that ends early when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
