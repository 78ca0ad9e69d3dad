import { describe, expect, it } from 'vitest';
import { decideArms, normalCdf, rateWithInterval, twoProportionPValue } from '../../src/app/experiment/stats.js';

describe('the statistics of an experiment', () => {
  it('has the standard normal CDF to six places', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1.644854)).toBeCloseTo(0.05, 6);
    expect(normalCdf(3)).toBeCloseTo(0.99865, 5);
  });

  it('gives a rate its 95 % Wilson interval (textbook values), and knows nothing of an empty arm', () => {
    const r = rateWithInterval(8, 10);
    expect(r.rate).toBe(0.8);
    expect(r.low).toBeCloseTo(0.4902, 3);
    expect(r.high).toBeCloseTo(0.9433, 3);
    expect(rateWithInterval(0, 0)).toEqual({ rate: 0, low: 0, high: 1 });
  });

  it('gives the two-sided p-value of the pooled two-proportion test', () => {
    // 45/100 against 30/100: z = 2.19, p ≈ 0.0285.
    expect(twoProportionPValue({ successes: 45, n: 100 }, { successes: 30, n: 100 })).toBeCloseTo(0.0285, 3);
    expect(twoProportionPValue({ successes: 5, n: 10 }, { successes: 5, n: 10 })).toBeCloseTo(1, 6);
  });

  it('picks the better arm when the test is sure enough, and falls back otherwise', () => {
    const clear = decideArms([{ arm: 'a', n: 50, successes: 10 }, { arm: 'b', n: 50, successes: 40 }], 0.95, 'a');
    expect(clear).toMatchObject({ winner: 'b', by: 'significant' });
    expect(clear.pValue).toBeLessThan(0.001);
    const close = decideArms([{ arm: 'a', n: 50, successes: 24 }, { arm: 'b', n: 50, successes: 26 }], 0.95, 'a');
    expect(close).toMatchObject({ winner: 'a', by: 'fallback' });
    expect(decideArms([{ arm: 'a', n: 50, successes: 24 }, { arm: 'b', n: 50, successes: 26 }], 0.95, 'b').winner).toBe('b');
  });
});
