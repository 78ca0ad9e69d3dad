/**
 * The statistics an experiment is decided with, as pure functions: the standard normal's CDF, a
 * rate's 95 % interval (Wilson's), and the two-proportion z-test (pooled, two-sided).
 */

/** Φ(x), the standard normal CDF, from erf (Abramowitz and Stegun 7.1.26: error below 1.5e-7). */
export function normalCdf(x: number): number {
  return 0.5 * (1 + erf(x / Math.SQRT2));
}

function erf(x: number): number {
  const sign = x < 0 ? -1 : 1;
  const z = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - poly * Math.exp(-z * z));
}

/** A rate of `successes` in `n` with its 95 % Wilson interval; [0, 1] when n is 0. */
export function rateWithInterval(successes: number, n: number): { rate: number; low: number; high: number } {
  if (n <= 0) return { rate: 0, low: 0, high: 1 };
  const z = 1.959963984540054;
  const p = successes / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + z2n);
  return { rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The two-sided p-value of the pooled two-proportion z-test of a = b; 1 when either side is empty or nothing varies. */
export function twoProportionPValue(a: { successes: number; n: number }, b: { successes: number; n: number }): number {
  if (a.n === 0 || b.n === 0) return 1;
  const pooled = (a.successes + b.successes) / (a.n + b.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n));
  if (se === 0) return 1;
  const z = Math.abs(a.successes / a.n - b.successes / b.n) / se;
  return Math.min(1, 2 * (1 - normalCdf(z)));
}

/** One arm as counted: its sent messages and how many of them reached the metric. */
export interface ArmCount {
  arm: string;
  n: number;
  successes: number;
}

export interface ArmResult extends ArmCount {
  rate: number;
  /** The 95 % interval of the rate. */
  low: number;
  high: number;
}

export interface ExperimentVerdict {
  winner: string;
  /** `significant`: the best arm beat the next at the confidence asked; `fallback`: no arm did. */
  by: 'significant' | 'fallback';
  /** The p-value of the best arm against the next best. */
  pValue: number;
  arms: ArmResult[];
}

/**
 * The arm with the highest rate wins when the two-proportion test against the next best says so at
 * `confidence` (p below 1 − confidence); otherwise the fallback arm goes. Pure.
 */
export function decideArms(counts: readonly ArmCount[], confidence: number, fallback: string): ExperimentVerdict {
  const arms = counts.map((c) => ({ ...c, ...rateWithInterval(c.successes, c.n) }));
  const ranked = [...arms].sort((x, y) => y.rate - x.rate);
  const [best, next] = ranked;
  const pValue = best && next ? twoProportionPValue(best, next) : 1;
  const significant = best !== undefined && next !== undefined && best.rate > next.rate && pValue < 1 - confidence;
  return { winner: significant ? best.arm : fallback, by: significant ? 'significant' : 'fallback', pValue, arms };
}
