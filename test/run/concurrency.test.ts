import { describe, expect, it } from 'vitest';
import {
  ADJUST_EVERY_MS,
  HOLD_MS,
  concurrencyBound,
  concurrencyBoundMessage,
  createConcurrencyController,
  growthStep,
  MAX_GROWTH_SPAN_MS,
  nextLimit,
  targetLimit,
  type ConcurrencyController,
  type ConcurrencySettings,
  type ConcurrencyState,
  type SampleKind,
} from '../../src/run/index.js';

/** A controller on a clock the test moves. */
function controller(options: { rate: number; max: number; min?: number; initial?: number }) {
  let now = 1_000_000;
  const ctrl = createConcurrencyController({ ...options, clock: () => now });
  return {
    ctrl,
    /** `perSecond` answers of `latencyMs` each, for `seconds`, the clock moving between them. */
    feed(latencyMs: number, seconds: number, perSecond: number, kind: SampleKind = 'ok') {
      for (let i = 0; i < seconds * perSecond; i++) {
        now += 1000 / perSecond;
        ctrl.observe({ latencyMs, kind });
      }
    },
  };
}

/** The limit after each of `count` answers of `latencyMs`, `perSecond` apart. */
function limitsOver(run: ReturnType<typeof controller>, latencyMs: number, count: number, perSecond: number): number[] {
  const limits: number[] = [];
  for (let i = 0; i < count; i++) {
    run.feed(latencyMs, 1 / perSecond, perSecond);
    limits.push(run.ctrl.limit());
  }
  return limits;
}

const settings: ConcurrencySettings = { rate: 200, min: 1, max: 500 };
/** A state whose limit last moved one adjustment period ago: the next move may grow it by a quarter. */
const fresh: ConcurrencyState = { limit: 10, holdUntil: -Infinity, lastAdjust: -ADJUST_EVERY_MS, lastDecrease: -Infinity };
/** The same after an overload signal long ago (its hold is over): growth goes step by step. */
const afterOverload: ConcurrencyState = { ...fresh, lastDecrease: -60_000 };

describe('createConcurrencyController', () => {
  it('settles near 325 (rate × latency × 1.3) at 500 ms answers and 500/s asked', () => {
    const run = controller({ rate: 500, max: 1000 });
    run.feed(500, 20, 500);
    expect(run.ctrl.limit()).toBe(325);
    expect(run.ctrl.limit()).toBeGreaterThanOrEqual(250);
    expect(run.ctrl.limit()).toBeLessThanOrEqual(375);
    expect(run.ctrl.p90LatencyMs()).toBe(500);
  });

  it('rises with the answer time to rate × latency × headroom', () => {
    const run = controller({ rate: 200, max: 500 });
    run.feed(100, 10, 200);
    expect(run.ctrl.limit()).toBe(26);
    run.feed(400, 12, 200);
    expect(run.ctrl.limit()).toBe(104);
  });

  it('falls when the answer time falls', () => {
    const run = controller({ rate: 200, max: 500 });
    run.feed(400, 10, 200);
    expect(run.ctrl.limit()).toBe(104);
    run.feed(100, 12, 200);
    expect(run.ctrl.limit()).toBe(26);
  });

  it('after an overload signal, grows back gradually, never jumping to max on slow answers', () => {
    const run = controller({ rate: 1000, max: 64, initial: 6 });
    run.ctrl.observe({ latencyMs: 30_000, kind: 'timeout' });
    expect(run.ctrl.limit()).toBe(4);
    run.feed(2_000, (HOLD_MS - 10) / 1000, 1000);
    expect(run.ctrl.limit()).toBe(4);
    const limits = limitsOver(run, 2_000, 3_000, 1000);
    expect(limits.at(-1)).toBe(64);
    for (let i = 1; i < limits.length; i++) {
      const before = limits[i - 1] ?? 0;
      expect(limits[i]).toBeGreaterThanOrEqual(before);
      expect(limits[i]).toBeLessThanOrEqual(Math.max(before + 1, Math.floor(before * 1.25)));
    }
  });

  it('reaches rate × latency × headroom within two answer times when answers take 2 s (they come in waves)', () => {
    let now = 0;
    const ctrl = createConcurrencyController({ rate: 200, max: 1000, initial: 8, clock: () => now });
    // Each wave: every request in flight answers 2 s after it left, all within a few ms.
    for (let wave = 1; wave <= 3; wave++) {
      now = wave * 2_000;
      const inFlight = ctrl.limit();
      for (let i = 0; i < inFlight; i++) {
        now += 1;
        ctrl.observe({ latencyMs: 2_000, kind: 'ok' });
      }
      if (wave === 2) expect(ctrl.limit()).toBe(520);
    }
    expect(ctrl.limit()).toBe(520);
  });

  it('does not move on one slow answer among many quick ones', () => {
    const run = controller({ rate: 200, max: 500 });
    run.feed(100, 10, 200);
    run.feed(30_000, 0.005, 200);
    run.feed(100, 1, 200);
    expect(run.ctrl.limit()).toBe(26);
  });

  it('drops on a timeout, once for a burst of them', () => {
    const run = controller({ rate: 200, max: 500 });
    run.feed(400, 10, 200);
    expect(run.ctrl.limit()).toBe(104);
    for (let i = 0; i < 50; i++) run.ctrl.observe({ latencyMs: 30_000, kind: 'timeout' });
    expect(run.ctrl.limit()).toBe(72);
  });

  it('drops on 429s and holds before growing again', () => {
    const run = controller({ rate: 200, max: 500 });
    run.feed(400, 10, 200);
    run.ctrl.observe({ latencyMs: 5, kind: 'rate_limited' });
    expect(run.ctrl.limit()).toBe(72);
    run.feed(400, (HOLD_MS - 100) / 1000, 200);
    expect(run.ctrl.limit()).toBe(72);
    run.feed(400, 5, 200);
    expect(run.ctrl.limit()).toBe(104);
  });

  it('drops on 5xx answers, and further when they go on', () => {
    const run = controller({ rate: 200, max: 500 });
    run.feed(400, 10, 200);
    run.feed(50, 3, 10, 'server_error');
    expect(run.ctrl.limit()).toBeLessThan(36);
  });

  it('never goes above max', () => {
    const run = controller({ rate: 1000, max: 64 });
    run.feed(5_000, 10, 1000);
    expect(run.ctrl.limit()).toBe(64);
  });

  it('never goes below min', () => {
    const run = controller({ rate: 100, max: 64, min: 3 });
    run.feed(1, 5, 100);
    expect(run.ctrl.limit()).toBe(3);
    run.feed(1_000, 60, 5, 'timeout');
    expect(run.ctrl.limit()).toBe(3);
  });

  it('starts at 4 within [min, max], or at the initial limit given', () => {
    expect(createConcurrencyController({ rate: 10, max: 64, clock: () => 0 }).limit()).toBe(4);
    expect(createConcurrencyController({ rate: 10, max: 2, clock: () => 0 }).limit()).toBe(2);
    expect(createConcurrencyController({ rate: 10, max: 64, min: 8, clock: () => 0 }).limit()).toBe(8);
    expect(createConcurrencyController({ rate: 10, max: 64, initial: 16, clock: () => 0 }).limit()).toBe(16);
  });

  it('keeps the limit while it has no answer yet', () => {
    const c: ConcurrencyController = createConcurrencyController({ rate: 10, max: 64, clock: () => 0 });
    expect(c.p90LatencyMs()).toBeUndefined();
    expect(c.limit()).toBe(4);
  });
});

describe('the first answers of a run', () => {
  /** An "auto" run's controller before any answer: 8 in flight, started at 0, no overload seen. */
  const start: ConcurrencyState = { limit: 8, holdUntil: -Infinity, lastAdjust: 0, lastDecrease: -Infinity };

  it('size the limit at once to rate × answer time × headroom at 500 ms', () => {
    const after = nextLimit(start, { kind: 'ok', p90LatencyMs: 500, samples: 1 }, 500, { rate: 300, min: 1, max: 1000 });
    expect(after.limit).toBe(195);
  });

  it('size the limit at once to rate × answer time × headroom at 2,000 ms', () => {
    const after = nextLimit(start, { kind: 'ok', p90LatencyMs: 2_000, samples: 1 }, 2_000, { rate: 200, min: 1, max: 1000 });
    expect(after.limit).toBe(520);
  });

  it('raise it at once again when later answers take longer', () => {
    const first = nextLimit(start, { kind: 'ok', p90LatencyMs: 400, samples: 1 }, 400, { rate: 300, min: 1, max: 1000 });
    expect(first.limit).toBe(156);
    expect(nextLimit(first, { kind: 'ok', p90LatencyMs: 600, samples: 8 }, 500, { rate: 300, min: 1, max: 1000 }).limit).toBe(234);
  });

  it('do not lower it before MIN_SAMPLES answers', () => {
    const big = { ...start, limit: 300 };
    expect(nextLimit(big, { kind: 'ok', p90LatencyMs: 100, samples: 1 }, 500, { rate: 300, min: 1, max: 1000 }).limit).toBe(300);
  });

  it('move a controller on an injected clock from 8 to the sized limit on the first answer', () => {
    let now = 10_000;
    const ctrl = createConcurrencyController({ rate: 300, max: 1000, initial: 8, clock: () => now });
    now += 500;
    ctrl.observe({ latencyMs: 500, kind: 'ok' });
    expect(ctrl.limit()).toBe(195);
    now += 2;
    for (let i = 0; i < 7; i++) ctrl.observe({ latencyMs: 500, kind: 'ok' });
    expect(ctrl.limit()).toBe(195);
  });

  it("add the workers' own time per request off the wire (their durable writes) to the answer time", () => {
    let now = 0;
    const ctrl = createConcurrencyController({ rate: 300, max: 1000, initial: 8, clock: () => now });
    now = 100;
    ctrl.observe({ latencyMs: 40, kind: 'ok' });
    // 300/s × 40 ms × 1.3 = 15.6 → 16
    expect(ctrl.limit()).toBe(16);
    for (let i = 0; i < 10; i++) ctrl.observeOwn?.({ ms: 60 });
    now = 200;
    ctrl.observe({ latencyMs: 40, kind: 'ok' });
    // 300/s × (40 + 60) ms × 1.3 = 39
    expect(ctrl.limit()).toBe(39);
  });

  it('move a controller on an injected clock to 520 on the first 2,000 ms answer at 200/s', () => {
    let now = 0;
    const ctrl = createConcurrencyController({ rate: 200, max: 1000, initial: 8, clock: () => now });
    now = 2_000;
    ctrl.observe({ latencyMs: 2_000, kind: 'ok' });
    expect(ctrl.limit()).toBe(520);
  });
});

describe('nextLimit', () => {
  const ok = (p90LatencyMs: number | undefined, samples = 20) => ({ kind: 'ok' as const, p90LatencyMs, samples });

  it('goes to the target at once when no overload was signalled', () => {
    expect(nextLimit(fresh, ok(1_000), 0, settings).limit).toBe(260);
    expect(nextLimit({ ...fresh, limit: 2 }, ok(50, 1), 0, settings).limit).toBe(13);
  });

  it('after an overload, grows toward the target by at most a quarter of the limit, at least one', () => {
    expect(nextLimit(afterOverload, ok(1_000), 0, settings).limit).toBe(12);
    expect(nextLimit({ ...afterOverload, limit: 2 }, ok(1_000), 0, settings).limit).toBe(3);
    expect(nextLimit({ ...afterOverload, limit: 12 }, ok(50), 0, settings).limit).toBe(13);
  });

  it('falls toward the target by at most a quarter of the limit', () => {
    expect(nextLimit({ ...fresh, limit: 100 }, ok(10), 0, settings).limit).toBe(75);
  });

  it('sizes the target from the answer time plus the own time per request', () => {
    expect(nextLimit(fresh, { ...ok(1_000), ownMs: 500 }, 0, settings).limit).toBe(390);
  });

  it('stops at the target', () => {
    expect(nextLimit({ ...fresh, limit: 25 }, ok(100), 0, settings).limit).toBe(26);
    expect(nextLimit({ ...fresh, limit: 27 }, ok(100), 0, settings).limit).toBe(26);
  });

  it('does not move more than once per adjustment period', () => {
    const once = nextLimit(afterOverload, ok(1_000), 0, settings);
    expect(nextLimit(once, ok(1_000), ADJUST_EVERY_MS - 1, settings)).toBe(once);
    expect(nextLimit(once, ok(1_000), ADJUST_EVERY_MS, settings).limit).toBe(15);
  });

  it('does not fall on fewer than MIN_SAMPLES answers, nor move without a latency', () => {
    expect(nextLimit({ ...fresh, limit: 100 }, ok(10, 4), 0, settings).limit).toBe(100);
    expect(nextLimit(fresh, ok(undefined, 0), 0, settings)).toBe(fresh);
  });

  it('cuts the limit by 0.7 on an overload signal and holds growth', () => {
    for (const kind of ['timeout', 'rate_limited', 'server_error'] as const) {
      const cut = nextLimit(fresh, { kind, p90LatencyMs: 100, samples: 20 }, 5_000, settings);
      expect(cut).toMatchObject({ limit: 7, holdUntil: 5_000 + HOLD_MS, lastDecrease: 5_000 });
      expect(nextLimit(cut, ok(1_000), 5_000 + HOLD_MS - 1, settings).limit).toBe(7);
      expect(nextLimit(cut, ok(1_000), 5_000 + HOLD_MS, settings).limit).toBe(8);
    }
  });

  it('lets the limit shrink during a hold', () => {
    const held = { ...fresh, limit: 100, holdUntil: 10_000 };
    expect(nextLimit(held, ok(10), 0, settings).limit).toBe(75);
  });

  it('cuts once per second, and extends the hold on each signal', () => {
    const cut = nextLimit(fresh, { kind: 'timeout', p90LatencyMs: 100, samples: 20 }, 0, settings);
    const again = nextLimit(cut, { kind: 'timeout', p90LatencyMs: 100, samples: 20 }, 500, settings);
    expect(again).toMatchObject({ limit: 7, holdUntil: 500 + HOLD_MS });
    expect(nextLimit(again, { kind: 'timeout', p90LatencyMs: 100, samples: 20 }, 1_000, settings).limit).toBe(4);
  });
});

describe('growthStep', () => {
  it('allows a quarter per adjustment period, compounded over the time since the last move, at least one', () => {
    expect(growthStep(100, ADJUST_EVERY_MS)).toBe(25);
    expect(growthStep(100, 2 * ADJUST_EVERY_MS)).toBe(56);
    expect(growthStep(100, 0)).toBe(1);
    expect(growthStep(2, ADJUST_EVERY_MS)).toBe(1);
  });

  it('counts at most MAX_GROWTH_SPAN_MS of waiting', () => {
    expect(growthStep(4, Number.POSITIVE_INFINITY)).toBe(growthStep(4, MAX_GROWTH_SPAN_MS));
    expect(growthStep(4, -5)).toBe(1);
  });
});

describe('targetLimit', () => {
  it('is rate × p90 × 1.3, rounded up, within [min, max]', () => {
    expect(targetLimit({ rate: 500, min: 1, max: 1000 }, 500)).toBe(325);
    expect(targetLimit({ rate: 10, min: 1, max: 64 }, 100)).toBe(2);
    expect(targetLimit({ rate: 1000, min: 1, max: 64 }, 500)).toBe(64);
    expect(targetLimit({ rate: 10, min: 4, max: 64 }, 1)).toBe(4);
  });
});

describe('concurrencyBound', () => {
  it('says a fixed concurrency keeps the run below the asked rate, with the rate it reaches', () => {
    const bound = concurrencyBound(4, 31.4, 1000);
    expect(bound).toEqual({ bound: true, achievablePerSecond: 127 });
    expect(concurrencyBoundMessage(bound, 1000)).toBe('concurrency-bound: 127/s of 1000/s asked; use rate.concurrency auto');
  });

  it('says it is not bound when the concurrency covers the rate', () => {
    expect(concurrencyBound(64, 50, 1000)).toEqual({ bound: false, achievablePerSecond: 1280 });
    expect(concurrencyBound(50, 100, 500)).toEqual({ bound: false, achievablePerSecond: 500 });
  });

  it('is not bound before any latency was measured', () => {
    expect(concurrencyBound(1, 0, 1000).bound).toBe(false);
  });
});
