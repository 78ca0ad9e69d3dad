import { describe, expect, it } from 'vitest';
import { canonical, RecordSet } from '../../src/checkpoint/file/import.js';
import { seededRandom } from '../../src/sim/random.js';

/** What the import compared records by before: a set of every record's canonical text. */
function byCanonicalText(records: readonly Record<string, unknown>[]): boolean[] {
  const have = new Set<string>();
  return records.map((r) => {
    const key = canonical(r);
    if (have.has(key)) return false;
    have.add(key);
    return true;
  });
}

/** Ledger and suppression records as the import builds them, many the same but for their keys' order, some without a phone or with one that is not a text. */
function records(seed: number, count: number): Record<string, unknown>[] {
  const r = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const shuffled = (o: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(o).sort(() => r() - 0.5));
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    if (out.length > 0 && r() < 0.2) {
      // One seen before, its keys (and its nested keys) in another order, or one field changed.
      const before = pick(out);
      const again = shuffled({ ...before, ...(typeof before.message === 'object' && before.message !== null && { message: shuffled(before.message as Record<string, unknown>) }) });
      out.push(r() < 0.7 ? again : { ...again, at: '2026-11-22T00:00:00.000Z' });
      continue;
    }
    const phone = pick([`+5511${900_000_000 + Math.floor(r() * 50)}`, `+5511${900_000_000 + Math.floor(r() * 50)}`, undefined, 5_511_900_000_001, null]);
    const base = {
      v: 1,
      ...(phone !== undefined && { phone }),
      at: pick(['2026-11-21T10:00:00.000Z', '2026-11-21T10:00:01.000Z']),
      job: pick(['promo', 'reminder']),
      ...(r() < 0.5 && { outside_window: r() < 0.5 }),
      ...(r() < 0.3 && { op: 'take_back' }),
      ...(r() < 0.4 && { message: pick(['abc', { template: 'promo', values: ['a', 'b'] }]) }),
      ...(r() < 0.5 && { company: pick([1, 2]) }),
    };
    out.push(r() < 0.5 ? shuffled(base) : base);
  }
  return out;
}

describe('telling apart the records a store import appends', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`keeps exactly the records a set of canonical texts keeps (records ${seed})`, () => {
      const list = records(seed, 3000);
      const set = new RecordSet();
      expect(list.map((r) => set.add(r))).toEqual(byCanonicalText(list));
    });
  }

  it('counts a record the store holds already, in another key order, as there', () => {
    const set = new RecordSet();
    expect(set.add({ v: 1, phone: '+5511900000001', job: 'promo', at: '2026-11-21T10:00:00.000Z' })).toBe(true);
    expect(set.add({ at: '2026-11-21T10:00:00.000Z', job: 'promo', phone: '+5511900000001', v: 1 })).toBe(false);
    expect(set.add({ v: 1, phone: '+5511900000001', job: 'reminder', at: '2026-11-21T10:00:00.000Z' })).toBe(true);
    expect(set.add({ v: 1, job: 'promo', at: '2026-11-21T10:00:00.000Z' })).toBe(true);
    expect(set.add({ job: 'promo', v: 1, at: '2026-11-21T10:00:00.000Z' })).toBe(false);
  });
});
