import Bottleneck from 'bottleneck';
import { describe, expect, it, vi } from 'vitest';
import { createRateLimiter, permitsForTick } from '../../src/run/index.js';

/** A clock that only moves when the limiter sleeps: waits are counted, not spent. */
function fakeTime() {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    clock: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
    slept,
  };
}

describe('createRateLimiter', () => {
  it('lets no more than per_minute requests go in any 60 seconds', async () => {
    const t = fakeTime();
    const limiter = createRateLimiter({ perSecond: 1000, perMinute: 3, clock: t.clock, sleep: t.sleep });
    const grantedAt: number[] = [];
    for (let i = 0; i < 7; i++) {
      await limiter.acquire();
      await limiter.pace();
      grantedAt.push(t.clock());
    }
    await limiter.stop();
    for (let i = 3; i < grantedAt.length; i++) expect(grantedAt[i]! - grantedAt[i - 3]!).toBeGreaterThanOrEqual(60_000);
  });

  it('paces sends so that no second holds more than the rate, however they bunch before it', async () => {
    const t = fakeTime();
    const limiter = createRateLimiter({ perSecond: 3, clock: t.clock, sleep: t.sleep });
    const sentAt: number[] = [];
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        await limiter.pace();
        sentAt.push(t.clock());
      }),
    );
    await limiter.stop();
    expect(sentAt).toHaveLength(10);
    for (let i = 3; i < sentAt.length; i++) expect(sentAt[i]! - sentAt[i - 3]!).toBeGreaterThanOrEqual(1000);
  });

  it('holds every request for the wait a 429 asked, and slows down', async () => {
    const t = fakeTime();
    const limiter = createRateLimiter({ perSecond: 100, clock: t.clock, sleep: t.sleep });
    await limiter.acquire();
    const before = t.clock();
    limiter.backOff(2_000);
    expect(limiter.currentRate()).toBe(75);
    await limiter.pace(); // a request that already held its permit waits too
    expect(t.clock() - before).toBeGreaterThanOrEqual(2_000);
    await limiter.acquire();
    expect(t.clock() - before).toBeGreaterThanOrEqual(2_000);
    await limiter.stop();
  });

  it('rejects waiting requests when the run stops, and a request whose signal aborts', async () => {
    const limiter = createRateLimiter({ perSecond: 1 });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    const queued = expect(limiter.acquire()).rejects.toThrow(/stopped/);
    await limiter.stop();
    await queued;
  });

  it('grants rate/100 permits per tick above 100/s, so bottleneck runs one job per tick, not one per request', async () => {
    const schedule = vi.spyOn(Bottleneck.prototype, 'schedule');
    // A clock that does not move: no tick is late, so none grants more than k (a late tick's share is permitsForTick's, below).
    const limiter = createRateLimiter({ perSecond: 1000, clock: () => 1_000_000 });
    try {
      await Promise.all(Array.from({ length: 200 }, () => limiter.acquire()));
      // k = 10 permits a tick: 20 ticks for 200 permits.
      expect(schedule.mock.calls.length).toBe(20);
    } finally {
      schedule.mockRestore();
      await limiter.stop();
    }
  });
});

describe('permitsForTick', () => {
  it('grants k on a tick that comes on time, and the first one', () => {
    expect(permitsForTick(5, 500, 10, 0)).toEqual({ permits: 5, carry: 0 });
    expect(permitsForTick(5, 500, undefined, 0)).toEqual({ permits: 5, carry: 0 });
  });

  it('grants what a late tick owes (timers fire late on a busy machine), keeping the fraction for the next', () => {
    expect(permitsForTick(5, 500, 13, 0)).toEqual({ permits: 6, carry: 0.5 });
    expect(permitsForTick(5, 500, 13, 0.5)).toEqual({ permits: 7, carry: 0 });
  });

  it('never grants more than two ticks at once, nor carries more than one tick', () => {
    expect(permitsForTick(5, 500, 1_000, 0)).toEqual({ permits: 10, carry: 5 });
    expect(permitsForTick(1, 50, -5, 0)).toEqual({ permits: 1, carry: 0 });
  });
});
