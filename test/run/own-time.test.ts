import { describe, expect, it } from 'vitest';
import { ownTimeMeter } from '../../src/run/own-time.js';
import type { SendContext } from '../../src/run/context.js';
import type { ConcurrencySample } from '../../src/run/index.js';

/** A run's context with only what the meter touches: the clock, the sleep and the wire. */
function runContext(clock: { now: number }, ended: Array<ConcurrencySample | undefined>): SendContext {
  return {
    clock: () => clock.now,
    sleep: async (ms: number) => {
      clock.now += ms;
    },
    wire: { sent: () => undefined, ended: (s: ConcurrencySample | undefined) => void ended.push(s) },
  } as unknown as SendContext;
}

describe("a worker's own time per request", () => {
  it('is the contact\'s time less its waits for the limiter, its sleeps and its time on the wire, per request', async () => {
    const clock = { now: 1_000 };
    const ended: Array<ConcurrencySample | undefined> = [];
    const meter = ownTimeMeter(runContext(clock, ended));
    meter.start();
    clock.now += 300; // 100 ms waited for a permit, 20 ms writing the attempt…
    meter.ctx.wire?.waited?.(100);
    meter.ctx.wire?.sent();
    meter.ctx.wire?.ended({ latencyMs: 180, kind: 'ok', channelId: 14 }); // …180 ms on the wire
    await meter.ctx.sleep(1_000); // a back-off
    clock.now += 40; // the outcome's record
    meter.ctx.wire?.waited?.(0);
    meter.ctx.wire?.ended({ latencyMs: 0, kind: 'ok', channelId: 14 });
    // (300 + 1,000 + 40 − 100 − 1,000 − 180) ÷ 2 requests = 30 ms
    expect(meter.end()).toEqual({ ms: 30, channelId: 14 });
    expect(ended).toHaveLength(2);
  });

  it('says nothing of a contact that made no request, or whose request the run cut', () => {
    const clock = { now: 0 };
    const meter = ownTimeMeter(runContext(clock, []));
    meter.start();
    clock.now += 50;
    expect(meter.end()).toBeUndefined();
    meter.start();
    meter.ctx.wire?.ended(undefined);
    expect(meter.end()).toBeUndefined();
  });
});
