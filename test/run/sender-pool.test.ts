import { describe, expect, it } from 'vitest';
import { poolFigures, reachedRate } from '../../src/app/run/sender-pool.js';
import { contactNumber, createSenderPool, rendezvousNumber, unlimitedLimiter } from '../../src/run/index.js';

const phones = Array.from({ length: 3000 }, (_, i) => `+5511970${String(i).padStart(6, '0')}`);

describe('the choice of a contact\'s number (rendezvous hashing)', () => {
  it('chooses the same number for a phone whatever the order of the pool', () => {
    for (const p of phones.slice(0, 100)) expect(rendezvousNumber(p, [10, 11, 14])).toBe(rendezvousNumber(p, [14, 10, 11]));
  });

  it('spreads phones about evenly over the numbers', () => {
    const counts = new Map<number, number>();
    for (const p of phones) counts.set(rendezvousNumber(p, [10, 11, 14]), (counts.get(rendezvousNumber(p, [10, 11, 14])) ?? 0) + 1);
    for (const id of [10, 11, 14]) expect(counts.get(id)).toBeGreaterThan(800);
  });

  it('moves only the phones of a drained number, and says they moved', () => {
    for (const p of phones.slice(0, 300)) {
      const own = rendezvousNumber(p, [10, 11, 14]);
      const now = contactNumber(p, [10, 11, 14], [10, 11]);
      if (own === 14) expect(now).toEqual({ id: rendezvousNumber(p, [10, 11]), moved: true });
      else expect(now).toEqual({ id: own, moved: false });
    }
    expect(contactNumber(phones[0] as string, [10, 11, 14], [])).toBeUndefined();
  });
});

describe('the rate a number of a pool reached', () => {
  it('is its accepted first messages over the time from its first to its last: n of them make n − 1 intervals', () => {
    expect(reachedRate(301, 1_000, 2_000)).toBe(300);
    expect(reachedRate(3, 0, 1_500)).toBe(1.3);
  });

  it('is their count when they all came within less than a second, never a rate drawn from a few milliseconds', () => {
    expect(reachedRate(2, 5, 24)).toBe(2);
    expect(reachedRate(40, 0, 999)).toBe(40);
  });

  it('is not told below two messages', () => {
    expect(reachedRate(1, 5, 5)).toBeUndefined();
    expect(reachedRate(0, undefined, undefined)).toBeUndefined();
  });

  it('is counted per number from the times the run recorded each accepted message, failures left out', () => {
    const channel = (id: number) => ({ id, name: `n${id}`, type: 'wba', status: 1 }) as never;
    const pool = createSenderPool([10, 11].map((id) => ({ channel: channel(id), limiter: unlimitedLimiter() })));
    for (let i = 0; i <= 40; i++) pool.tally(10, 'sent', 1_000 + i * 50);
    pool.tally(10, 'failed', 9_000);
    pool.tally(11, 'sent', 4_000);
    const figures = poolFigures(pool, 80);
    expect(figures).toEqual([
      { channelId: 10, sent: 41, failed: 1, perSecond: 80, reachedPerSecond: 20 },
      { channelId: 11, sent: 1, failed: 0, perSecond: 80 },
    ]);
  });
});
