import { createLatencyWindow } from './latency-window.js';

/**
 * Adaptive concurrency: how many requests may be in flight so that the asked rate is reached. By
 * Little's law in-flight = rate × latency, so the target is rate × p90 answer time × HEADROOM. The
 * limit moves toward the target by at most a quarter per step, holds still after an overload signal
 * (timeout, 429, 5xx) that cut it by DECREASE, and stays in [min, max]. `nextLimit` is the pure
 * decision; `createConcurrencyController` keeps the window and the clock around it.
 *
 * The latency to feed is the request's own (from leaving to its answer), not the wait for a permit of
 * the rate limiter: permits above the target only wait at the limiter, so they do not slow the platform.
 */

export type SampleKind = 'ok' | 'timeout' | 'rate_limited' | 'server_error';

export interface ConcurrencySample {
  latencyMs: number;
  /** 'ok' for any answer that is not an overload signal (a provider refusal is 'ok' here). */
  kind: SampleKind;
}

/** In-flight = rate × latency × this: room for the latency to vary without falling below the rate. */
export const HEADROOM = 1.3;
/** The latency window: the last 10 s, at most this many samples. */
export const WINDOW_MS = 10_000;
export const WINDOW_MAX_SAMPLES = 512;
/** Fewer samples than this in the window say too little to move the limit. */
export const MIN_SAMPLES = 5;
/** The limit moves at most once per this, and by at most STEP of itself (at least 1). */
export const ADJUST_EVERY_MS = 100;
export const STEP = 0.25;
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
      if (now - state.lastAdjust < ADJUST_EVERY_MS || seen.p90LatencyMs === undefined || seen.samples < MIN_SAMPLES) return state;
      const target = targetLimit(settings, seen.p90LatencyMs);
      const step = Math.max(1, Math.floor(state.limit * STEP));
      let limit = state.limit;
      if (target > limit && now >= state.holdUntil) limit = Math.min(target, limit + step);
      else if (target < limit) limit = Math.max(target, limit - step);
      return { ...state, limit: clamp(limit, settings), lastAdjust: now };
    }
    default: {
      const never: never = seen.kind;
      return never;
    }
  }
}

/** Whether a fixed concurrency keeps the run below the asked rate, and the rate it can reach at that latency. */
export interface ConcurrencyBound {
  bound: boolean;
  /** limit ÷ p90 answer time, in requests per second (rounded down). */
  achievablePerSecond: number;
}

export function concurrencyBound(limit: number, p90LatencyMs: number, rate: number): ConcurrencyBound {
  if (!(p90LatencyMs > 0)) return { bound: false, achievablePerSecond: Number.POSITIVE_INFINITY };
  const achievablePerSecond = Math.floor((limit * 1000) / p90LatencyMs);
  return { bound: achievablePerSecond < rate, achievablePerSecond };
}

/** e.g. `concurrency-bound: 127/s of 1000/s asked; use rate.concurrency auto`. */
export function concurrencyBoundMessage(bound: ConcurrencyBound, rate: number): string {
  return `concurrency-bound: ${bound.achievablePerSecond}/s of ${rate}/s asked; use rate.concurrency auto`;
}

export interface ConcurrencyController {
  observe(sample: ConcurrencySample): void;
  /** Requests that may be in flight now. */
  limit(): number;
  /** The p90 answer time of the window now, for messages; undefined before any answer. */
  p90LatencyMs(): number | undefined;
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
  let state: ConcurrencyState = {
    limit: clamp(Math.floor(options.initial ?? 4), settings),
    holdUntil: Number.NEGATIVE_INFINITY,
    lastAdjust: Number.NEGATIVE_INFINITY,
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
      state = nextLimit(state, { kind: 'ok', p90LatencyMs: window.p90(now), samples: window.size(now) }, now, settings);
    },
    limit: () => state.limit,
    p90LatencyMs: () => window.p90(clock()),
  };
}

function clamp(limit: number, settings: { min: number; max: number }): number {
  return Math.min(settings.max, Math.max(settings.min, limit));
}
