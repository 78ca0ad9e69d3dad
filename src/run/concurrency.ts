import { createLatencyWindow } from './latency-window.js';

/**
 * Adaptive concurrency: how many requests may be in flight so that the asked rate is reached. By
 * Little's law in-flight = rate × latency, so the target is rate × p90 answer time × HEADROOM. The
 * run knows the rate it asks and the first answers say the latency, so the limit goes to the target
 * at once, from the first answer on (a single answer may raise it; lowering it takes MIN_SAMPLES).
 * After an overload signal (timeout, 429, 5xx) cut it by DECREASE, it holds still for HOLD_MS and then
 * grows again by at most STEP per ADJUST_EVERY_MS elapsed (compounded): the platform said it was
 * struggling, so no leap then. It falls toward the target by at most a quarter per step, moves at most
 * once per ADJUST_EVERY_MS, and stays in [min, max]. `nextLimit` is the pure decision;
 * `createConcurrencyController` keeps the window and the clock around it.
 *
 * Slower answers raise the target (more must be in flight to keep the rate; the rate limiter still
 * caps what the platform receives per second, so a larger limit never sends faster than asked);
 * only the overload signals lower it below the target.
 *
 * The latency to feed is the request's own (from leaving to its answer), not the wait for a permit of
 * the rate limiter: permits above the target only wait at the limiter, so they do not slow the platform.
 * A worker also spends time of its own on each request, off the wire: the write-ahead record before it,
 * the outcome's record after it, the ledger. Fed with `observeOwn`, the mean of that time is added to
 * the answer time in the target, so the workers are enough for the rate when those writes take long.
 */

export type SampleKind = 'ok' | 'timeout' | 'rate_limited' | 'server_error';

export interface ConcurrencySample {
  latencyMs: number;
  /** 'ok' for any answer that is not an overload signal (a provider refusal is 'ok' here). */
  kind: SampleKind;
  /** The number (channel id) the request went from, in a pool: its own controller learns from it (run/pool-concurrency.ts). */
  channelId?: number;
}

/** In-flight = rate × latency × this: room for the latency to vary without falling below the rate. */
export const HEADROOM = 1.3;
/** The latency window: the last 10 s, at most this many samples. */
export const WINDOW_MS = 10_000;
export const WINDOW_MAX_SAMPLES = 512;
/** Fewer samples than this in the window say too little to lower the limit (one answer may raise it). */
export const MIN_SAMPLES = 5;
/** The limit moves at most once per this; after an overload, it grows by at most STEP of itself (at least 1) per this much time. */
export const ADJUST_EVERY_MS = 100;
export const STEP = 0.25;
/** Growth compounds over the time since the last move, counted up to this much. */
export const MAX_GROWTH_SPAN_MS = WINDOW_MS;
/** An overload signal multiplies the limit by this, at most once per DECREASE_EVERY_MS… */
export const DECREASE = 0.7;
export const DECREASE_EVERY_MS = 1_000;
/** …and the limit does not grow until HOLD_MS after the last overload signal. */
export const HOLD_MS = 3_000;

export interface ConcurrencySettings {
  /** Asked requests per second. */
  rate: number;
  min: number;
  max: number;
}

export interface ConcurrencyState {
  limit: number;
  /** The limit may not grow before this instant (epoch ms). */
  holdUntil: number;
  /** When the limit last moved on latency, and when it was last cut. */
  lastAdjust: number;
  lastDecrease: number;
}

/** What the controller saw: one sample, with the window's p90 and size after it. */
export interface Observation {
  kind: SampleKind;
  p90LatencyMs: number | undefined;
  samples: number;
  /** The mean time a worker spends on a request off the wire (its durable writes), added to the answer time in the target. */
  ownMs?: number;
}

/** rate × p90 × HEADROOM, rounded up, within [min, max]. */
export function targetLimit(settings: ConcurrencySettings, p90LatencyMs: number): number {
  return clamp(Math.ceil(settings.rate * (p90LatencyMs / 1000) * HEADROOM), settings);
}

/** The next state after one observation at `now`. Pure. */
export function nextLimit(state: ConcurrencyState, seen: Observation, now: number, settings: ConcurrencySettings): ConcurrencyState {
  switch (seen.kind) {
    case 'timeout':
    case 'rate_limited':
    case 'server_error': {
      const holdUntil = Math.max(state.holdUntil, now + HOLD_MS);
      if (now - state.lastDecrease < DECREASE_EVERY_MS) return { ...state, holdUntil };
      return { ...state, limit: clamp(Math.floor(state.limit * DECREASE), settings), holdUntil, lastDecrease: now };
    }
    case 'ok': {
      if (now - state.lastAdjust < ADJUST_EVERY_MS || seen.p90LatencyMs === undefined || seen.samples < 1) return state;
      const target = targetLimit(settings, seen.p90LatencyMs + (seen.ownMs ?? 0));
      let limit = state.limit;
      if (target > limit && now >= state.holdUntil) limit = overloaded(state) ? Math.min(target, limit + growthAfterOverload(state, now)) : target;
      else if (target < limit && seen.samples >= MIN_SAMPLES) limit = Math.max(target, limit - Math.max(1, Math.floor(state.limit * STEP)));
      else if (seen.samples < MIN_SAMPLES) return state;
      return { ...state, limit: clamp(limit, settings), lastAdjust: now };
    }
    default: {
      const never: never = seen.kind;
      return never;
    }
  }
}

/** Whether the platform signalled overload during the run (the limit was cut at least once). */
function overloaded(state: ConcurrencyState): boolean {
  return state.lastDecrease > Number.NEGATIVE_INFINITY;
}

/** Growth after an overload counts from the last move or the end of the hold, whichever is later: no leap. */
function growthAfterOverload(state: ConcurrencyState, now: number): number {
  return growthStep(state.limit, now - Math.max(state.lastAdjust, state.holdUntil));
}

/** How much the limit may grow after `elapsedMs` without a move: STEP per ADJUST_EVERY_MS, compounded, at least 1. */
export function growthStep(limit: number, elapsedMs: number): number {
  const periods = Math.min(Math.max(elapsedMs, 0), MAX_GROWTH_SPAN_MS) / ADJUST_EVERY_MS;
  const grown = limit * Math.pow(1 + STEP, periods);
  return Math.max(1, Math.floor(grown - limit));
}

/** Whether a fixed concurrency keeps the run below the asked rate, and the rate it can reach at that latency. */
export interface ConcurrencyBound {
  bound: boolean;
  /** limit ÷ p90 answer time, in requests per second (rounded down). */
  achievablePerSecond: number;
}

/**
 * limit ÷ answer time (Little's law) against the asked rate. Pass the mean answer time for what the
 * run reaches on average (the p90 gives a more cautious figure). A rate within 2 % of the asked one
 * is not bound: the limiter itself holds the run a little under the rate (its pacing window).
 */
export function concurrencyBound(limit: number, latencyMs: number, rate: number): ConcurrencyBound {
  if (!(latencyMs > 0)) return { bound: false, achievablePerSecond: Number.POSITIVE_INFINITY };
  const achievablePerSecond = Math.floor((limit * 1000) / latencyMs);
  return { bound: achievablePerSecond < rate * BOUND_SLACK, achievablePerSecond };
}

/** Below this share of the asked rate, a run is said to be concurrency-bound. */
export const BOUND_SLACK = 0.98;

/**
 * e.g. `concurrency-bound: 127/s of 1000/s asked; use rate.concurrency auto`. `hint` is the fix
 * (a run already on "auto" that meets its ceiling is told to raise rate.max_concurrency).
 */
export function concurrencyBoundMessage(bound: ConcurrencyBound, rate: number, hint = 'use rate.concurrency auto'): string {
  return `concurrency-bound: ${bound.achievablePerSecond}/s of ${rate}/s asked; ${hint}`;
}

/** A worker's own time on one request, off the wire and outside the limiter's waits (run/executor.ts measures it per contact). */
export interface OwnTimeSample {
  ms: number;
  /** In a pool, the number the requests went from. */
  channelId?: number;
}

export interface ConcurrencyController {
  observe(sample: ConcurrencySample): void;
  /** The worker's own time per request besides the wire: it adds to the answer time in the target. */
  observeOwn?(sample: OwnTimeSample): void;
  /** Requests that may be in flight now. */
  limit(): number;
  /** The p90 answer time of the window now, for messages; undefined before any answer. */
  p90LatencyMs(): number | undefined;
  /** The mean answer time of the window now; undefined before any answer. */
  meanLatencyMs(): number | undefined;
}

export interface ConcurrencyOptions {
  rate: number;
  max: number;
  /** Default 1. */
  min?: number;
  /** Default 4, within [min, max]. */
  initial?: number;
  clock: () => number;
}

export function createConcurrencyController(options: ConcurrencyOptions): ConcurrencyController {
  const min = Math.max(1, Math.floor(options.min ?? 1));
  const settings: ConcurrencySettings = { rate: options.rate, min, max: Math.max(min, Math.floor(options.max)) };
  const { clock } = options;
  const window = createLatencyWindow(WINDOW_MS, WINDOW_MAX_SAMPLES);
  const own = createLatencyWindow(WINDOW_MS, WINDOW_MAX_SAMPLES);
  let state: ConcurrencyState = {
    limit: clamp(Math.floor(options.initial ?? 4), settings),
    holdUntil: Number.NEGATIVE_INFINITY,
    // Growth counts from the start: the first answers cannot move the limit further than their own wait.
    lastAdjust: clock(),
    lastDecrease: Number.NEGATIVE_INFINITY,
  };

  return {
    observe(sample) {
      const now = clock();
      if (sample.kind !== 'ok') {
        // An overload signal's own time says nothing of the platform's answer time: it stays out of the window.
        state = nextLimit(state, { kind: sample.kind, p90LatencyMs: undefined, samples: 0 }, now, settings);
        return;
      }
      window.add(now, sample.latencyMs);
      if (now - state.lastAdjust < ADJUST_EVERY_MS) return; // nextLimit would not move: spare the sort
      state = nextLimit(state, { kind: 'ok', p90LatencyMs: window.p90(now), samples: window.size(now), ownMs: own.mean(now) ?? 0 }, now, settings);
    },
    observeOwn(sample) {
      own.add(clock(), sample.ms);
    },
    limit: () => state.limit,
    p90LatencyMs: () => window.p90(clock()),
    meanLatencyMs: () => window.mean(clock()),
  };
}

function clamp(limit: number, settings: { min: number; max: number }): number {
  return Math.min(settings.max, Math.max(settings.min, limit));
}
