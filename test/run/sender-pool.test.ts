import { describe, expect, it } from 'vitest';
import { contactNumber, rendezvousNumber } from '../../src/run/index.js';

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
