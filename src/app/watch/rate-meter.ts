/**
 * The rate a job sends at now, as a watcher measures it: the job's sent count sampled each time its
 * figures are read, the rate over the last minute of samples. Nothing is asked of the run: any number
 * of processes on any host may be sending, and the store's count is what they did together.
 */

/** Sends a minute over the last samples; undefined until the samples span `minSpanMs`. */
export interface MeasuredRate {
  perMinute?: number;
  /** The span the rate was measured over (ms). */
  overMs: number;
}

export interface RateMeter {
  /** Takes the job's sent count at `at` (epoch ms) and says the rate of the samples kept. */
  sample(key: string, at: number, sent: number): MeasuredRate;
  /** Forgets the job (it is not running: its next run is measured afresh). */
  forget(key: string): void;
}

interface Sample {
  at: number;
  sent: number;
}

/** A meter keeping `windowMs` of samples per job (plus the last one before it); a rate needs `minSpanMs` of them. */
export function rateMeter(options: { windowMs?: number; minSpanMs?: number } = {}): RateMeter {
  const windowMs = options.windowMs ?? 60_000;
  const minSpanMs = options.minSpanMs ?? 4_000;
  const samples = new Map<string, Sample[]>();
  return {
    sample(key, at, sent) {
      let kept = samples.get(key);
      if (kept === undefined) samples.set(key, (kept = []));
      const last = kept[kept.length - 1];
      // A count that went down (the job's state started again) starts the measure again.
      if (last !== undefined && (sent < last.sent || at < last.at)) kept.length = 0;
      kept.push({ at, sent });
      // Keep the newest sample at or before the window's start, so the rate spans the whole window.
      while (kept.length > 2 && (kept[1]?.at ?? at) <= at - windowMs) kept.shift();
      const first = kept[0];
      const overMs = first === undefined ? 0 : at - first.at;
      if (first === undefined || overMs < minSpanMs) return { overMs };
      return { perMinute: ((sent - first.sent) / overMs) * 60_000, overMs };
    },
    forget(key) {
      samples.delete(key);
    },
  };
}
