import { describe, expect, it } from 'vitest';
import { createRateLimiter, PAIR_RATE_MIN_WAIT_MS } from '../../src/run/index.js';
import { provided } from './helpers.js';
import { virtualTime } from '../helpers/virtual-time.js';
import { waitFor } from '../helpers/wait.js';

describe('pair_rate (131056): this contact waits and goes again on its conversation; the others go on', () => {
  it('waits at least 6 s for that contact only, then sends on the same conversation, while the rest are sent meanwhile', async () => {
    const p = await provided({ rows: 8, job: { rate: { per_second: 200, concurrency: 3 } } });
    const busy = p.phones[0]!;
    const others = p.phones.slice(1);
    p.sim.state.forceProviderError(busy, 131056);
    const waits: number[] = [];
    let othersSentDuringWait = -1;

    const outcome = await p.run({
      sleep: async (ms) => {
        waits.push(ms);
        if (ms < PAIR_RATE_MIN_WAIT_MS) return;
        // The provider lets this person receive again later; meanwhile the other workers carry on.
        p.sim.state.clearProviderError(busy);
        await waitFor(() => others.every((phone) => p.sim.state.messageCount(phone) === 1));
        othersSentDuringWait = others.filter((phone) => p.sim.state.messageCount(phone) === 1).length;
      },
    });

    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(PAIR_RATE_MIN_WAIT_MS);
    expect(othersSentDuringWait).toBe(others.length);
    const sends = p.sendsTo(busy);
    expect(sends.map((r) => r.status)).toEqual([502, 200]);
    const state = (await p.states()).get(busy);
    expect(sends[1]!.path).toBe(`/chat/conversations/${state?.conversationId}/wba-send-template`);
    expect(state).toMatchObject({ status: 'sent', via: 'template' });
    expect(p.sim.state.startWhatsappCount(busy)).toBe(1);
    expect(outcome.thisRun.sent).toBe(8);
  });

  it('waits longer each time and leaves the contact failed (retryable) once retry.attempts are spent', async () => {
    const p = await provided({ rows: 1, job: { retry: { attempts: 2, backoff_ms: 1 } } });
    const busy = p.phones[0]!;
    p.sim.state.forceProviderError(busy, 131056);
    const waits: number[] = [];

    await p.run({ sleep: async (ms) => void waits.push(ms) });
    expect(waits).toHaveLength(2);
    expect(waits[1]!).toBeGreaterThan(waits[0]!);
    expect(p.sendsTo(busy)).toHaveLength(3);
    expect((await p.states()).get(busy)).toMatchObject({ status: 'failed', retryable: true, code: 131056, errorClass: 'pair_rate' });
  });
});

describe('throughput (130429, 80007): like a 429, everyone pauses and the limiter slows down', () => {
  it('pauses every request after the refusal, then sends that contact again on its conversation', async () => {
    const p = await provided({ rows: 12, job: { rate: { per_second: 100, concurrency: 4 } } });
    const first = p.phones[0]!;
    p.sim.state.forceProviderError(first, 130429);
    // The limiter's time moves only when it waits: a pause is counted, not spent, and nothing depends on the machine's speed.
    const time = virtualTime();
    const real = createRateLimiter({ perSecond: 100, clock: time.now, sleep: time.sleep });
    const pauses: Array<{ at: number; ms: number; leftBefore: number }> = [];
    /** The limiter's time at which each request passed its last gate, in order. */
    const left: number[] = [];
    const limiter = {
      ...real,
      async pace() {
        await real.pace();
        left.push(time.now());
      },
      backOff(ms: number) {
        pauses.push({ at: time.now(), ms, leftBefore: left.length });
        p.sim.state.clearProviderError(first);
        real.backOff(ms);
      },
    };

    const outcome = await p.run({ limiter });
    expect(outcome.thisRun.sent).toBe(12);
    expect(pauses).toHaveLength(1);
    expect(limiter.currentRate()).toBeLessThan(100);
    const [refused, again] = p.sendsTo(first);
    expect(refused!.status).toBe(502);
    expect(again!.path).toMatch(/\/chat\/conversations\/\d+\/wba-send-template$/);
    // Nothing left during the pause: every request that passed the gate after the refusal did so once the pause was over.
    const { at, ms, leftBefore } = pauses[0]!;
    const after = left.slice(leftBefore);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after.filter((t) => t < at + ms)).toEqual([]);
  });
});
