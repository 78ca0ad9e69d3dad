import { afterEach, describe, expect, it } from 'vitest';
import { jitteredLatency } from '../../src/sim/faults.js';
import { closeAll, harness } from './helpers.js';

afterEach(closeAll);

describe('latency with jitter', () => {
  it('draws each latency uniformly from latencyMs ± latencyJitterMs, never below 0', () => {
    expect([0, 0.25, 0.5, 0.999].map((u) => jitteredLatency(100, 40, u))).toEqual([60, 80, 100, 140]);
    expect(jitteredLatency(10, 40, 0)).toBe(0);
  });

  it('delays each request by latencyMs ± latencyJitterMs, the same latencies for the same seed', async () => {
    const latencies = async () => {
      const h = await harness({ seed: 5, faults: { latencyMs: 60, latencyJitterMs: 40 } });
      for (let i = 0; i < 20; i++) {
        const started = Date.now();
        await h.call('GET', '/wba/templates');
        expect(Date.now() - started).toBeGreaterThanOrEqual((h.state.requests.at(-1)?.latencyMs ?? 0) - 2);
      }
      return h.state.requests.map((r) => r.latencyMs ?? 0);
    };
    const first = await latencies();
    expect(Math.min(...first)).toBeGreaterThanOrEqual(20);
    expect(Math.max(...first)).toBeLessThanOrEqual(100);
    expect(new Set(first).size).toBeGreaterThan(10);
    expect(await latencies()).toEqual(first);
  });

  it('keeps 1,000 requests in flight at once without blocking: all answered in about one latency, not a thousand', async () => {
    const h = await harness({ faults: { latencyMs: 400, latencyJitterMs: 100 } });
    const started = Date.now();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () => fetch(`${h.sim.url}/wba/templates`, { headers: { authorization: `Bearer ${h.sim.token}` } })),
    );
    const elapsed = Date.now() - started;
    clearInterval(ticker);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await Promise.all(answers.map((a) => a.arrayBuffer()));
    expect(h.state.requests.filter((r) => (r.latencyMs ?? 0) >= 300)).toHaveLength(1000);
    expect(elapsed).toBeLessThan(8_000);
    // The event loop kept turning while the thousand waited: a 50 ms ticker fired throughout.
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(elapsed / 50 / 3));
  });
});
