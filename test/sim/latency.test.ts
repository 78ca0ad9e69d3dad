import { afterEach, describe, expect, it } from 'vitest';
import { jitteredLatency } from '../../src/sim/faults.js';
import type { SimDelay } from '../../src/sim/index.js';
import { closeAll, harness } from './helpers.js';

afterEach(closeAll);

/**
 * The simulator's delays, held: each answer waits until the test releases it, and each delay asked is
 * kept. No wall time is measured (the speed of 1,000 answers in flight is in `npm run bench`).
 */
function heldDelays() {
  const asked: number[] = [];
  const held: Array<() => void> = [];
  let onAsked = () => undefined as void;
  const delay: SimDelay = (answer, ms) => {
    asked.push(ms);
    held.push(answer);
    onAsked();
    return () => undefined;
  };
  return {
    delay,
    asked,
    /** Resolves once `count` answers wait. */
    waiting: (count: number) =>
      new Promise<void>((resolve) => {
        onAsked = () => void (held.length >= count && resolve());
        onAsked();
      }),
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
  };
}

describe('latency with jitter', () => {
  it('draws each latency uniformly from latencyMs ± latencyJitterMs, never below 0', () => {
    expect([0, 0.25, 0.5, 0.999].map((u) => jitteredLatency(100, 40, u))).toEqual([60, 80, 100, 140]);
    expect(jitteredLatency(10, 40, 0)).toBe(0);
  });

  it('holds each answer for latencyMs ± latencyJitterMs, the same latencies for the same seed', async () => {
    const latencies = async () => {
      const delays = heldDelays();
      const h = await harness({ seed: 5, faults: { latencyMs: 60, latencyJitterMs: 40 }, delay: delays.delay });
      for (let i = 0; i < 20; i++) {
        let answered = false;
        const call = h.call('GET', '/wba/templates').then((a) => ((answered = true), a));
        await delays.waiting(1);
        // Held: no answer until its delay is over.
        await new Promise((r) => setImmediate(r));
        expect(answered).toBe(false);
        delays.release();
        expect((await call).status).toBe(200);
      }
      expect(delays.asked).toEqual(h.state.requests.map((r) => r.latencyMs));
      return delays.asked;
    };
    const first = await latencies();
    expect(Math.min(...first)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...first)).toBeLessThanOrEqual(100);
    expect(new Set(first).size).toBeGreaterThan(10);
    expect(await latencies()).toEqual(first);
  });

  it('answers no request with latency 0 through a delay', async () => {
    const delays = heldDelays();
    const h = await harness({ delay: delays.delay });
    expect((await h.call('GET', '/wba/templates')).status).toBe(200);
    expect(delays.asked).toEqual([]);
  });

  it('keeps 1,000 requests waiting out their latency at once without blocking: each is taken while the others wait', async () => {
    const delays = heldDelays();
    const h = await harness({ faults: { latencyMs: 400, latencyJitterMs: 100 }, delay: delays.delay });
    let answered = 0;
    const answers = Array.from({ length: 1000 }, () =>
      fetch(`${h.sim.url}/wba/templates`, { headers: { authorization: `Bearer ${h.sim.token}` } }).then((a) => (answered++, a)),
    );
    // All thousand are held at the same moment: the simulator took each while the others waited.
    await delays.waiting(1000);
    expect(answered).toBe(0);
    expect(delays.asked.every((ms) => ms >= 300 && ms <= 500)).toBe(true);
    delays.release();
    const all = await Promise.all(answers);
    expect(all.every((a) => a.status === 200)).toBe(true);
    await Promise.all(all.map((a) => a.arrayBuffer()));
    expect(h.state.requests.filter((r) => (r.latencyMs ?? 0) >= 300)).toHaveLength(1000);
  });
});
