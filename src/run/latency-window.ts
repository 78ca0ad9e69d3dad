/**
 * The recent answer times of the run: a sliding window of the last `windowMs` and at most `maxSamples`
 * samples, and its percentiles. The time of each sample is passed in; nothing here reads a clock.
 */

/** The nearest-rank percentile (q in (0, 1]) of the values; undefined for none. */
export function percentile(values: readonly number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1];
}

export interface LatencyWindow {
  /** One answer time, measured at `at` (epoch ms). */
  add(at: number, latencyMs: number): void;
  /** The samples still in the window at `now`. */
  size(now: number): number;
  /** The 90th percentile of the samples still in the window at `now`; undefined without any. */
  p90(now: number): number | undefined;
  /** The mean of the samples still in the window at `now` (Little's law's answer time); undefined without any. */
  mean(now: number): number | undefined;
}

export function createLatencyWindow(windowMs: number, maxSamples: number): LatencyWindow {
  let samples: Array<{ at: number; latencyMs: number }> = [];

  function prune(now: number): void {
    const from = samples.findIndex((s) => s.at > now - windowMs);
    const start = Math.max(from === -1 ? samples.length : from, samples.length - maxSamples);
    if (start > 0) samples = samples.slice(start);
  }

  return {
    add(at, latencyMs) {
      if (!Number.isFinite(latencyMs) || latencyMs < 0) return;
      samples.push({ at, latencyMs });
      if (samples.length > 2 * maxSamples) prune(at);
    },
    size(now) {
      prune(now);
      return samples.length;
    },
    p90(now) {
      prune(now);
      return percentile(
        samples.map((s) => s.latencyMs),
        0.9,
      );
    },
    mean(now) {
      prune(now);
      if (samples.length === 0) return undefined;
      let sum = 0;
      for (const s of samples) sum += s.latencyMs;
      return sum / samples.length;
    },
  };
}
