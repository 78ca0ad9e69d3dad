/** Bucket sizes a chart may use, in seconds: from a second (a short test run) to a week (a long campaign's replies). */
const SIZES = [1, 5, 10, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 21_600, 43_200, 86_400, 172_800, 604_800];

/**
 * Counts of `times` (epoch ms) per bucket, the empty ones included, with the smallest bucket size
 * of at least `minSeconds` that keeps the chart to `maxBars` bars (or the largest size). Pure.
 */
export function timeBuckets(times: readonly number[], options: { minSeconds?: number; maxBars?: number } = {}): { buckets: Array<{ start: string; count: number }>; bucketSeconds: number } {
  const min = options.minSeconds ?? 1;
  const maxBars = options.maxBars ?? 120;
  if (times.length === 0) return { buckets: [], bucketSeconds: min };
  let first = Infinity;
  let last = -Infinity;
  for (const t of times) {
    if (t < first) first = t;
    if (t > last) last = t;
  }
  const fits = SIZES.filter((s) => s >= min);
  const seconds = fits.find((s) => Math.floor(last / (s * 1000)) - Math.floor(first / (s * 1000)) < maxBars) ?? fits[fits.length - 1] ?? min;
  const size = seconds * 1000;
  const start = Math.floor(first / size);
  const counts = new Array<number>(Math.floor(last / size) - start + 1).fill(0);
  for (const t of times) {
    const i = Math.floor(t / size) - start;
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return { buckets: counts.map((count, i) => ({ start: new Date((start + i) * size).toISOString(), count })), bucketSeconds: seconds };
}

/** `second`, `5 seconds`, `minute`, `15 minutes`, `hour`, `6 hours`, `day`, `week`. */
export function bucketName(seconds: number): string {
  const units: Array<[number, string]> = [[604_800, 'week'], [86_400, 'day'], [3600, 'hour'], [60, 'minute'], [1, 'second']];
  for (const [size, unit] of units) {
    if (seconds % size === 0) {
      const n = seconds / size;
      return n === 1 ? unit : `${n} ${unit}s`;
    }
  }
  return `${seconds} seconds`;
}
