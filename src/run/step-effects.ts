import type { SendContext } from './context.js';
import type { Effect, Wait } from './next-step.js';
import { pairRateWaitMs } from './provider-classes.js';
import { backoffMs, rateLimitWaitMs } from './retry-policy.js';

/** Carries out what a step of the send table does before its record (`run/next-step.ts`). */
export async function applyEffect(ctx: SendContext, effect: Effect, phone: string): Promise<void> {
  switch (effect.kind) {
    case 'pause_all':
      // Everyone waits from now: the pause starts before the answer is journaled.
      ctx.limiter.backOff(rateLimitWaitMs(effect.retryAfterMs, effect.consecutive, ctx.random()));
      return;
    case 'stop_run':
      ctx.onProviderStop(effect.reason, effect.message);
      return;
    case 'auth_refused':
      ctx.onAuthRefused(effect.error);
      return;
    case 'suppress':
      await ctx.onOptedOut(phone, effect.reason);
      return;
    case 'drain':
      ctx.pool?.drain(ctx.channel.id, { at: ctx.clock(), code: effect.code, error: effect.error });
      return;
    default: {
      const never: never = effect;
      return never;
    }
  }
}

/** How long a step's wait lasts, with one random draw. */
export function waitMs(ctx: SendContext, wait: Wait): number {
  switch (wait.kind) {
    case 'backoff':
      return backoffMs(wait.attempt, ctx.job.retry.backoff_ms, ctx.random());
    case 'pair_rate':
      return pairRateWaitMs(wait.attempt, ctx.random());
    default: {
      const never: never = wait;
      return never;
    }
  }
}
