import { describe, expect, it } from 'vitest';
import { unseenTest } from '../../src/app/report/unseen.js';

describe('the test of the numbers a state has not seen', () => {
  it('answers as the set does for the numbers it holds, numbers sharing their low bits with them, and any other', () => {
    const unseen = new Set([5_511_910_999_999, 5_511_910_999_999 + 2 ** 20, 12, 0, 447_700_900_123]);
    const has = unseenTest(unseen);
    const asked = [...unseen, 5_511_910_999_999 + 2 ** 21, 12 + 2 ** 20, 13, 1, 447_700_900_124, -12, Number.NaN, 1.5, 2 ** 53];
    for (const n of asked) expect(has(n)).toBe(unseen.has(n));
    for (let n = 5_511_910_000_000; n < 5_511_910_020_000; n++) expect(has(n)).toBe(unseen.has(n));
  });

  it('holds nothing when the state has seen every number', () => {
    const has = unseenTest(new Set());
    expect(has(0)).toBe(false);
    expect(has(5_511_910_999_999)).toBe(false);
  });
});
