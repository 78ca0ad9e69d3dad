import { answerKind } from './answer-kind.js';
import { classify, type Outcome } from './outcome.js';
import type { SendContext } from './context.js';
import type { ConcurrencySample, SampleKind } from './concurrency.js';
import { NO_TRIES, nextStep, type StepPlan } from './next-step.js';
import { applyEffect } from './step-effects.js';

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
 * pass the last pacing gate, send, classify. What follows the answer is `nextStep`'s to decide.
 */
export async function callOnce<T>(
  ctx: SendContext,
  call: (signal: AbortSignal) => Promise<T>,
  before?: () => Promise<void>,
): Promise<CallResult<T>> {
  const asked = ctx.clock();
  try {
    await ctx.limiter.acquire(ctx.stopSignal);
  } catch {
    throw new Interrupted();
  }
  const granted = ctx.clock();
  await before?.();
  const pacing = ctx.clock();
  await ctx.limiter.pace();
  const leftAt = ctx.clock();
  ctx.wire?.waited?.(granted - asked + (leftAt - pacing));
  ctx.wire?.sent();
  try {
    const value = await call(ctx.requestSignal);
    ctx.wire?.ended(sampleOf(ctx, leftAt, 'ok'));
    return { ok: true, value };
  } catch (err) {
    const kind = answerKind(err);
    ctx.wire?.ended(kind === undefined ? undefined : sampleOf(ctx, leftAt, kind));
    return { ok: false, outcome: classify(err) };
  }
}

/** The request's time on the wire and its kind of answer; in a pool, with the number it went from (its own controller learns from it). */
function sampleOf(ctx: SendContext, leftAt: number, kind: SampleKind): ConcurrencySample {
  const latencyMs = ctx.clock() - leftAt;
  return ctx.pool === undefined ? { latencyMs, kind } : { latencyMs, kind, channelId: ctx.channel.id };
}

/** Only the table's 429 row applies to a step's request (the follow-ups): the rest is the caller's. */
const STEP_PLAN: StepPlan = { hasConversation: true, canFallBackToTemplate: false, templatesAllowed: false, attempts: 0, stopped: false, marketingLimits: 0 };

/**
 * One request of an after-send step: a 429 is not an outcome of its own (nothing was done), so everyone
 * waits as the send table's `rate_limited` row says and the request goes again; any other answer is returned.
 */
export async function callPlatform<T>(
  ctx: SendContext,
  call: (signal: AbortSignal) => Promise<T>,
  hooks: { before?: () => Promise<void> } = {},
): Promise<CallResult<T>> {
  for (let tries = NO_TRIES; ; ) {
    const result = await callOnce(ctx, call, hooks.before);
    if (result.ok || result.outcome.kind !== 'rate_limited') return result;
    const step = nextStep(result.outcome, tries, STEP_PLAN);
    tries = step.tries;
    if (step.effect) await applyEffect(ctx, step.effect, '');
    if (step.then.kind !== 'again') return result;
  }
}
