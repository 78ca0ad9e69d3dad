import { describe, expect, it } from 'vitest';
import { evenShare, grantAmong, leftAt, processGone, RATE_SHARE_LEAVE_MS, SHARE_SETTLE_MS, shareStep, shareUsableUntil } from '../../src/rate-share/index.js';
import { shareGate, unlimitedLimiter } from '../../src/run/index.js';

describe('a number\'s rate shared by the processes sending from it', () => {
  it('splits the rate evenly, rounding down, and never below one', () => {
    expect(evenShare(20, 1)).toBe(20);
    expect(evenShare(20, 2)).toBe(10);
    expect(evenShare(20, 3)).toBe(6);
    expect(evenShare(2, 5)).toBe(1);
    expect(evenShare(20, 0)).toBe(20);
  });

  it('lowers a share above the even split, raises one below it, keeps one at it', () => {
    expect(shareStep(20, { senders: 2, perSecond: 20 })).toEqual({ kind: 'lower', to: 10 });
    expect(shareStep(0, { senders: 2, perSecond: 20 })).toEqual({ kind: 'raise', to: 10 });
    expect(shareStep(10, { senders: 1, perSecond: 20 })).toEqual({ kind: 'raise', to: 20 });
    expect(shareStep(10, { senders: 2, perSecond: 20 })).toEqual({ kind: 'keep' });
    // A job of the number with a lower rate lowers everyone's split.
    expect(shareStep(10, { senders: 2, perSecond: 8 })).toEqual({ kind: 'lower', to: 4 });
  });

  it('stops using a claim one settle window before the store lets it lapse', () => {
    expect(shareUsableUntil(1_000, 10_000)).toBe(11_000 - SHARE_SETTLE_MS);
    expect(SHARE_SETTLE_MS).toBeGreaterThan(1_020);
  });

  it('grants a claim what it held at once and more only out of what the other live claims leave, at the lowest rate of their jobs', () => {
    const others = [
      { sender: 'b', claim: 6, perSecond: 20 },
      { sender: 'c', claim: 6, perSecond: 15 },
    ];
    expect(grantAmong({ sender: 'a', want: 10, perSecond: 20 }, others)).toEqual({ granted: 3, senders: 3, perSecond: 15 });
    expect(grantAmong({ sender: 'a', want: 10, perSecond: 20 }, [...others, { sender: 'a', claim: 8, perSecond: 20 }])).toEqual({ granted: 8, senders: 3, perSecond: 15 });
    expect(grantAmong({ sender: 'a', want: 2, perSecond: 20 }, [...others, { sender: 'a', claim: 8, perSecond: 20 }])).toEqual({ granted: 2, senders: 3, perSecond: 15 });
    expect(grantAmong({ sender: 'a', want: 20, perSecond: 20 }, [])).toEqual({ granted: 20, senders: 1, perSecond: 20 });
  });

  it('lets the claim of a sender that left, or of a gone process of this host, lapse a leave window later', () => {
    expect(leftAt(10_000, 1_000)).toBe(1_000 + RATE_SHARE_LEAVE_MS);
    expect(leftAt(1_500, 1_000)).toBe(1_500);
    const alive = (pid: number) => pid === 1;
    expect(processGone({ pid: 2, host: 'here' }, 'here', alive)).toBe(true);
    expect(processGone({ pid: 1, host: 'here' }, 'here', alive)).toBe(false);
    expect(processGone({ pid: 2, host: 'there' }, 'here', alive)).toBe(false);
    expect(processGone({ pid: null, host: 'here' }, 'here', alive)).toBe(false);
  });
});

describe('the share gate of a number', () => {
  function gated() {
    let now = 0;
    const gate = shareGate(unlimitedLimiter(), { clock: () => now, sleep: () => new Promise((r) => setTimeout(r, 1)) });
    return { gate, at: (t: number) => (now = t) };
  }
  const settled = (p: Promise<void>) => Promise.race([p.then(() => 'through'), new Promise((r) => setTimeout(() => r('waiting'), 20))]);

  it('lets nothing through while the process holds no share, and lets it through once the share comes', async () => {
    const { gate } = gated();
    const waiting = gate.acquire();
    expect(await settled(waiting)).toBe('waiting');
    gate.setShare(2, 5_000);
    expect(await settled(waiting)).toBe('through');
    await gate.stop();
  });

  it('holds the process\'s own sends of the last second to its share, and a lowered share at once', async () => {
    const { gate, at } = gated();
    gate.setShare(3, 60_000);
    at(100);
    await gate.pace();
    await gate.pace();
    gate.setShare(2, 60_000);
    const third = gate.pace();
    expect(await settled(third)).toBe('waiting');
    at(1_121); // the first send is out of the window (a second and 20 ms)
    gate.setShare(2, 60_000);
    expect(await settled(third)).toBe('through');
    await gate.stop();
  });

  it('stops at the claim\'s lapse until it is renewed', async () => {
    const { gate, at } = gated();
    gate.setShare(5, 1_000);
    at(1_000);
    const late = gate.pace();
    expect(await settled(late)).toBe('waiting');
    gate.setShare(5, 3_000);
    expect(await settled(late)).toBe('through');
    await gate.stop();
  });
});
