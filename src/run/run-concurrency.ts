import type { Job } from '../job/index.js';
import { concurrencyBound, concurrencyBoundMessage, createConcurrencyController, type ConcurrencyController } from './concurrency.js';
import { poolController } from './pool-concurrency.js';

/** Requests in flight when an "auto" run starts: a few, grown from the first answers on. */
export const AUTO_INITIAL = 8;

/** How a run sizes its requests in flight, from the job's `rate`. */
export interface RunConcurrency {
  mode: 'auto' | 'fixed';
  /** The most requests in flight: the fixed number, or rate.max_concurrency. Also the connection pool's size. */
  ceiling: number;
  /** Measures the answer times; under "auto" its limit moves, under a fixed number it stays put. */
  controller: ConcurrencyController;
  /** The rate the job asks, per second (per_minute counted in when it is the lower one); a pool's: every number's together. */
  askedPerSecond: number;
  /** In a pool under "auto": the requests in flight one number may have now (its own controller's limit). */
  numberLimit?: (channelId: number) => number | undefined;
}

/** A job's pool of numbers (two or more): their channel ids, and which of them still send (not drained). */
export interface PoolNumbers {
  ids: readonly number[];
  live?: (channelId: number) => boolean;
}

/**
 * How a run sizes its requests in flight. rate.per_second and rate.per_minute are per number: a pool
 * under "auto" gives each number its own controller at that rate, fed its own answers
 * (run/pool-concurrency.ts); a fixed concurrency is the whole run's.
 */
export function runConcurrency(rate: Job['rate'], clock: () => number, pool?: PoolNumbers): RunConcurrency {
  const perNumber = rate.per_minute === undefined ? rate.per_second : Math.min(rate.per_second, rate.per_minute / 60);
  const numbers = pool !== undefined && pool.ids.length > 1 ? pool.ids : undefined;
  const askedPerSecond = perNumber * (numbers?.length ?? 1);
  if (rate.concurrency === 'auto') {
    const ceiling = rate.max_concurrency;
    const one = () => createConcurrencyController({ rate: perNumber, max: ceiling, initial: Math.min(AUTO_INITIAL, ceiling), clock });
    if (numbers === undefined) return { mode: 'auto', ceiling, askedPerSecond, controller: one() };
    const controller = poolController(
      numbers.map((id) => ({ id, controller: one() })),
      ceiling,
      pool?.live,
    );
    return { mode: 'auto', ceiling, askedPerSecond, controller, numberLimit: controller.limitOf };
  }
  const n = rate.concurrency;
  return { mode: 'fixed', ceiling: n, askedPerSecond, controller: createConcurrencyController({ rate: askedPerSecond, min: n, max: n, initial: n, clock }) };
}

/**
 * The sentence for people when the requests in flight keep the run below the asked rate at the answer
 * times measured now (Little's law on the mean answer time), or undefined when they do not (or
 * nothing was measured yet). Under "auto" only its ceiling can hold it back.
 */
export function concurrencyBoundNow(c: RunConcurrency): string | undefined {
  const latency = c.controller.meanLatencyMs();
  if (latency === undefined) return undefined;
  const limit = c.controller.limit();
  if (c.mode === 'auto' && limit < c.ceiling) return undefined;
  const bound = concurrencyBound(limit, latency, c.askedPerSecond);
  if (!bound.bound) return undefined;
  const asked = Math.round(c.askedPerSecond * 100) / 100;
  return c.mode === 'fixed'
    ? concurrencyBoundMessage(bound, asked)
    : concurrencyBoundMessage(bound, asked, `raise rate.max_concurrency (now ${c.ceiling})`);
}

/** How often the bound is worked out again while a run goes (it reads the whole latency window). */
const BOUND_EVERY_MS = 500;

/**
 * The bound sentence as the run goes: worked out at most every BOUND_EVERY_MS, and kept while no
 * answer time is known (at the end of a run the window may have emptied).
 */
export function boundWatch(c: RunConcurrency, clock: () => number): () => string | undefined {
  let at = Number.NEGATIVE_INFINITY;
  let last: string | undefined;
  return () => {
    const now = clock();
    if (now - at < BOUND_EVERY_MS) return last;
    at = now;
    if (c.controller.meanLatencyMs() !== undefined) last = concurrencyBoundNow(c);
    return last;
  };
}
