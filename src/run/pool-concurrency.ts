import type { ConcurrencyController } from './concurrency.js';

/** One number of a pool and the controller sizing its own requests in flight. */
export interface NumberController {
  id: number;
  controller: ConcurrencyController;
}

/**
 * A pool's concurrency (rate.concurrency "auto"): each number has its own controller, fed only that
 * number's answers (a sample's `channelId`) and sized at its own rate, so a slow or overloaded number
 * does not size the others. The run's requests in flight are the sum of the live numbers' limits,
 * within `ceiling` (rate.max_concurrency); each number's rate limiter still caps what it sends per
 * second. A sample without a known number (none in a pool: every request goes from a number) feeds
 * the first. The latency figures for people: the slowest number's p90, the numbers' mean of means.
 */
export function poolController(numbers: readonly NumberController[], ceiling: number, live: (id: number) => boolean = () => true): ConcurrencyController & { limitOf(id: number): number | undefined } {
  const first = numbers[0];
  if (first === undefined) throw new RangeError('a pool has at least one number');
  const byId = new Map(numbers.map((n) => [n.id, n.controller] as const));
  const known = (pick: (c: ConcurrencyController) => number | undefined) =>
    numbers.map((n) => pick(n.controller)).filter((v): v is number => v !== undefined);
  return {
    observe(sample) {
      const own = sample.channelId === undefined ? undefined : byId.get(sample.channelId);
      (own ?? first.controller).observe(sample);
    },
    observeOwn(sample) {
      const own = sample.channelId === undefined ? undefined : byId.get(sample.channelId);
      (own ?? first.controller).observeOwn?.(sample);
    },
    limit() {
      let sum = 0;
      for (const n of numbers) if (live(n.id)) sum += n.controller.limit();
      return Math.max(1, Math.min(ceiling, sum));
    },
    limitOf: (id) => byId.get(id)?.limit(),
    p90LatencyMs() {
      const all = known((c) => c.p90LatencyMs());
      return all.length === 0 ? undefined : Math.max(...all);
    },
    meanLatencyMs() {
      const all = known((c) => c.meanLatencyMs());
      return all.length === 0 ? undefined : all.reduce((a, b) => a + b, 0) / all.length;
    },
  };
}
