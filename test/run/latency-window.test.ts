import { describe, expect, it } from 'vitest';
import { createLatencyWindow, percentile } from '../../src/run/index.js';

describe('percentile', () => {
  it('takes the nearest rank', () => {
    expect(percentile([], 0.9)).toBeUndefined();
    expect(percentile([5], 0.9)).toBe(5);
    expect(percentile([10, 1, 9, 2, 8, 3, 7, 4, 6, 5], 0.9)).toBe(9);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100], 0.9)).toBe(10);
  });
});

describe('createLatencyWindow', () => {
  it('forgets samples older than the window', () => {
    const w = createLatencyWindow(10_000, 100);
    w.add(0, 900);
    w.add(5_000, 100);
    expect(w.size(9_999)).toBe(2);
    expect(w.p90(9_999)).toBe(900);
    expect(w.size(10_000)).toBe(1);
    expect(w.p90(10_000)).toBe(100);
    expect(w.p90(20_000)).toBeUndefined();
  });

  it('keeps only the most recent samples beyond its size', () => {
    const w = createLatencyWindow(10_000, 3);
    for (const [at, ms] of [[1, 500], [2, 10], [3, 20], [4, 30]] as const) w.add(at, ms);
    expect(w.size(5)).toBe(3);
    expect(w.p90(5)).toBe(30);
  });

  it('gives the mean of the samples in the window (Little\'s law\'s answer time)', () => {
    const w = createLatencyWindow(10_000, 100);
    expect(w.mean(0)).toBeUndefined();
    w.add(0, 100);
    w.add(1, 300);
    expect(w.mean(2)).toBe(200);
    expect(w.mean(10_000)).toBe(300);
  });

  it('ignores a negative or non-finite latency', () => {
    const w = createLatencyWindow(10_000, 10);
    w.add(1, -5);
    w.add(1, Number.NaN);
    w.add(1, Number.POSITIVE_INFINITY);
    expect(w.size(1)).toBe(0);
  });
});
