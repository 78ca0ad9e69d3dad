import { describe, expect, it } from 'vitest';
import { AUTO_INITIAL, HEADROOM, runConcurrency } from '../../src/run/index.js';
import { testJob } from '../helpers/run.js';

/** Ten answers of one number, one every 100 ms of the injected clock (the controller moves at most once per 100 ms). */
function answers(c: ReturnType<typeof runConcurrency>, clock: { now: number }, channelId: number, latencyMs: number, kind: 'ok' | 'rate_limited' = 'ok') {
  for (let i = 0; i < 10; i++) {
    clock.now += 100;
    c.controller.observe({ latencyMs, kind, channelId });
  }
}

describe('runConcurrency for a pool of numbers', () => {
  it("sizes each number's requests in flight from its own answer times and its own rate, and the run's from their sum", () => {
    const clock = { now: 1_000_000 };
    const c = runConcurrency(testJob({ rate: { per_second: 100 } }).rate, () => clock.now, { ids: [10, 14, 15] });
    expect(c).toMatchObject({ mode: 'auto', askedPerSecond: 300 });
    expect(c.numberLimit?.(10)).toBe(AUTO_INITIAL);
    expect(c.controller.limit()).toBe(3 * AUTO_INITIAL);
    answers(c, clock, 10, 500);
    answers(c, clock, 14, 40);
    // 100/s × 0.5 s × 1.3 = 65 for the slow number, 100/s × 0.04 s × 1.3 = 5.2 → 6 for the quick one; 15 has not answered yet.
    expect(c.numberLimit?.(10)).toBe(Math.ceil(100 * 0.5 * HEADROOM));
    expect(c.numberLimit?.(14)).toBe(6);
    expect(c.numberLimit?.(15)).toBe(AUTO_INITIAL);
    expect(c.controller.limit()).toBe(65 + 6 + AUTO_INITIAL);
  });

  it("adds a worker's own time per request to its own number's sizing only", () => {
    const clock = { now: 1_000_000 };
    const c = runConcurrency(testJob({ rate: { per_second: 100 } }).rate, () => clock.now, { ids: [10, 14] });
    for (let i = 0; i < 5; i++) c.controller.observeOwn?.({ ms: 460, channelId: 10 });
    answers(c, clock, 10, 40);
    answers(c, clock, 14, 40);
    // 100/s × (40 + 460) ms × 1.3 = 65 for number 10; 100/s × 40 ms × 1.3 = 5.2 → 6 for 14.
    expect(c.numberLimit?.(10)).toBe(65);
    expect(c.numberLimit?.(14)).toBe(6);
  });

  it("cuts only the number that signalled overload (a 429 on one number leaves the others' sizing alone)", () => {
    const clock = { now: 1_000_000 };
    const c = runConcurrency(testJob({ rate: { per_second: 100 } }).rate, () => clock.now, { ids: [10, 14] });
    answers(c, clock, 10, 500);
    answers(c, clock, 14, 500);
    clock.now += 2_000;
    c.controller.observe({ latencyMs: 0, kind: 'rate_limited', channelId: 14 });
    expect(c.numberLimit?.(10)).toBe(65);
    expect(c.numberLimit?.(14)).toBe(Math.floor(65 * 0.7));
  });

  it('leaves a drained number out of the run\'s requests in flight', () => {
    const clock = { now: 1_000_000 };
    const drained = new Set<number>();
    const c = runConcurrency(testJob({ rate: { per_second: 100 } }).rate, () => clock.now, { ids: [10, 14], live: (id) => !drained.has(id) });
    answers(c, clock, 10, 500);
    answers(c, clock, 14, 40);
    expect(c.controller.limit()).toBe(65 + 6);
    drained.add(10);
    expect(c.controller.limit()).toBe(6);
  });

  it('keeps the run within rate.max_concurrency, and a fixed concurrency for the whole run', () => {
    const clock = { now: 1_000_000 };
    const capped = runConcurrency(testJob({ rate: { per_second: 100, max_concurrency: 50 } }).rate, () => clock.now, { ids: [10, 14] });
    answers(capped, clock, 10, 500);
    answers(capped, clock, 14, 500);
    expect(capped.controller.limit()).toBe(50);
    const fixed = runConcurrency(testJob({ rate: { per_second: 100, concurrency: 64 } }).rate, () => clock.now, { ids: [10, 14] });
    expect(fixed).toMatchObject({ mode: 'fixed', ceiling: 64, askedPerSecond: 200 });
    expect(fixed.controller.limit()).toBe(64);
  });
});
