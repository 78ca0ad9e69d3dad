import { describe, expect, it } from 'vitest';
import { countMissing } from '../../src/checkpoint/unseen-count.js';

/** The plain count: each listed number (not skipped) that is in neither set. */
function plain(listed: number[], skip: Set<number>, mine: number[], extra: Set<number>): number {
  const have = new Set([...mine, ...extra]);
  return listed.filter((n, i) => !skip.has(i) && !have.has(n)).length;
}

function shuffled(values: number[], seed: number): number[] {
  const out = [...values];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const k = s % (i + 1);
    [out[i], out[k]] = [out[k] as number, out[i] as number];
  }
  return out;
}

describe('counting the listed phones with no state', () => {
  const listed = Array.from({ length: 500 }, (_, i) => 5511900000000 + i);
  const cases: Array<[string, number[], number[], number[], number[]]> = [
    ['in the same order, the last ones without a state', listed, listed.slice(0, 450), [], []],
    ['in another order', listed, shuffled(listed.slice(0, 400), 7), [], []],
    ['with states the listing does not have and rows left out', listed, [...shuffled(listed.slice(100, 300), 3), 1, 2, -1, 3], [], []],
    ['with a phone listed twice', [...listed.slice(0, 10), ...listed.slice(0, 5), ...listed.slice(20, 30)], listed.slice(0, 3), [], []],
    ['with phones added after the column and positions skipped', listed, listed.slice(0, 200), listed.slice(300, 320), [0, 250, 499]],
    ['with no state at all', listed, [], [], []],
  ];
  it.each(cases)('%s: the same count as a lookup of each', (_, l, mine, extra, skip) => {
    const skipped = new Set(skip);
    expect(countMissing(Float64Array.from(l), (i) => skipped.has(i), Float64Array.from(mine), new Set(extra))).toBe(plain(l, skipped, mine, new Set(extra)));
    if (skipped.size === 0) expect(countMissing(Float64Array.from(l), undefined, Float64Array.from(mine), new Set(extra))).toBe(plain(l, skipped, mine, new Set(extra)));
  });

  // Long runs the same on both sides (compared a block at a time), broken here and there.
  const long = Array.from({ length: 20_000 }, (_, i) => 5511900000000 + i);
  const runs: Array<[string, number[], number[]]> = [
    ['the same numbers in the same order', long, long],
    ['rows appended to the list since', [...long, ...Array.from({ length: 1_000 }, (_, i) => 5511800000000 + i)], long],
    ['one number changed, one inserted, one missing, in the middle', long.map((n, i) => (i === 9_000 ? 1 : n)).toSpliced(12_000, 0, 2).toSpliced(15_000, 1), long],
    ['states the list never had after it', long.slice(0, 10_000), long],
    ['a phone listed twice, far apart', [...long.slice(0, 5_000), long[10] as number, ...long.slice(5_000)], long.slice(0, 8_000)],
  ];
  it.each(runs)('%s: the same count as a lookup of each, whole or in parts', (_, l, mine) => {
    const none = new Set<number>();
    expect(countMissing(Float64Array.from(l), undefined, Float64Array.from(mine), none)).toBe(plain(l, none, mine, none));
    expect(countMissing(Float64Array.from(l), undefined, partsOf(mine, 3_000), none)).toBe(plain(l, none, mine, none));
    expect(countMissing(partsOf(l, 2_500), undefined, partsOf(mine, 3_000), none)).toBe(plain(l, none, mine, none));
  });

  /** `numbers` read `size` at a time into one array refilled, an empty part first. */
  const partsOf = (numbers: number[], size: number) =>
    function* () {
      const part = new Float64Array(size);
      yield part.subarray(0, 0);
      for (let at = 0; at < numbers.length; at += size) {
        const piece = part.subarray(0, Math.min(size, numbers.length - at));
        piece.set(numbers.slice(at, at + piece.length));
        yield piece;
      }
    };

  it.each(cases)('%s: the same count with either column read part by part (one array refilled, parts of any size, an empty one)', (_, l, mine, extra, skip) => {
    const skipped = new Set(skip);
    const expected = plain(l, skipped, mine, new Set(extra));
    for (const size of [1, 7, 64, 1_000]) {
      expect(countMissing(Float64Array.from(l), (i) => skipped.has(i), partsOf(mine, size), new Set(extra)), `the state's in parts of ${size}`).toBe(expected);
      expect(countMissing(partsOf(l, size), (i) => skipped.has(i), Float64Array.from(mine), new Set(extra)), `the listing's in parts of ${size}`).toBe(expected);
      expect(countMissing(partsOf(l, size + 3), (i) => skipped.has(i), partsOf(mine, size), new Set(extra)), `both in parts of ${size}`).toBe(expected);
      if (skipped.size === 0) expect(countMissing(partsOf(l, size + 3), undefined, partsOf(mine, size), new Set(extra)), `both in parts of ${size}, none skipped`).toBe(expected);
    }
  });

  it('reads a column in parts through to its end, so that one that does not check throws', () => {
    const failing = (numbers: number[]) =>
      function* () {
        yield Float64Array.from(numbers);
        throw new Error('does not check');
      };
    expect(() => countMissing(failing([1, 2, 3]), undefined, Float64Array.from([1, 2, 3, 4, 5]), new Set())).toThrow('does not check');
    expect(() => countMissing(Float64Array.from([1, 2, 3, 4, 5]), undefined, failing([1, 2, 3]), new Set())).toThrow('does not check');
    expect(() => countMissing(failing([1, 2, 3, 4, 5]), undefined, Float64Array.from([1]), new Set())).toThrow('does not check');
  });
});
