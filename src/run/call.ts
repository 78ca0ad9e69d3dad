import { answerKind } from './answer-kind.js';
import { classify, type Outcome } from './outcome.js';
import { MAX_RATE_LIMITED, type SendContext } from './context.js';
import { rateLimitWaitMs } from './retry-policy.js';

export type CallResult<T> = { ok: true; value: T } | { ok: false; outcome: Outcome };

/** Thrown when the run stopped before a permit was granted: nothing was sent. */
export class Interrupted extends Error {
  constructor() {
    super('the run stopped before this request was sent');
    this.name = 'Interrupted';
  }
}

/**
 * One request through the run's gate: take a permit, run `before` (the write-ahead journal record),
 * pass the last pacing gate, send, classify. A 429 is not an outcome of its own: nothing was done, so the limiter slows down for
 * everyone and the request goes again (after `onRateLimited`, which records that nothing went out).
 */
export async function callPlatform<T>(
  ctx: SendContext,
  call: (signal: AbortSignal) => Promise<T>,
  hooks: { before?: () => Promise<void>; onRateLimited?: (error: string) => Promise<void> } = {},
): Promise<CallResult<T>> {
  for (let limited = 0; ; ) {
    try {
      await ctx.limiter.acquire(ctx.stopSignal);
    } catch {
      throw new Interrupted();
    }
    await hooks.before?.();
    await ctx.limiter.pace();
    let outcome: Outcome;
    const leftAt = ctx.clock();
    ctx.wire?.sent();
    try {
      const value = await call(ctx.requestSignal);
      ctx.wire?.ended({ latencyMs: ctx.clock() - leftAt, kind: 'ok' });
      return { ok: true, value };
    } catch (err) {
      const kind = answerKind(err);
      ctx.wire?.ended(kind === undefined ? undefined : { latencyMs: ctx.clock() - leftAt, kind });
      outcome = classify(err);
    }
    if (outcome.kind !== 'rate_limited') return { ok: false, outcome };
    limited += 1;
    // Everyone waits from now: the pause starts before the 429 is journaled.
    if (limited <= MAX_RATE_LIMITED) ctx.limiter.backOff(rateLimitWaitMs(outcome.retryAfterMs, limited, ctx.random()));
    await hooks.onRateLimited?.(outcome.error);
    if (limited > MAX_RATE_LIMITED) return { ok: false, outcome };
  }
}
