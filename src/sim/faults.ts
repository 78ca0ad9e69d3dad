import { checkCodeShares, codeAt, totalShare } from './code-shares.js';
import type { ProviderCode } from './provider-codes.js';
import { seededRandom } from './random.js';
import type { SimFaults } from './types.js';

/** The faults in force, with every field filled. */
export type ActiveFaults = Required<SimFaults>;

const NO_FAULTS: ActiveFaults = {
  failRate: 0,
  wwDown: false,
  rateLimitPerSecond: 0,
  latencyMs: 0,
  latencyJitterMs: 0,
  dropRate: 0,
  dropAfterProcessing: false,
  providerErrors: {},
};

/** Throws a RangeError naming the first invalid field. */
export function validateFaults(partial: SimFaults): void {
  const share = (name: string, v: unknown) => {
    if (v !== undefined && (typeof v !== 'number' || !(v >= 0 && v <= 1)))
      throw new RangeError(`faults.${name} must be a number from 0 to 1`);
  };
  const nonNegative = (name: string, v: unknown) => {
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0))
      throw new RangeError(`faults.${name} must be a number of 0 or more`);
  };
  const flag = (name: string, v: unknown) => {
    if (v !== undefined && typeof v !== 'boolean') throw new RangeError(`faults.${name} must be true or false`);
  };
  share('failRate', partial.failRate);
  share('dropRate', partial.dropRate);
  if (
    partial.rateLimitPerSecond !== undefined &&
    (typeof partial.rateLimitPerSecond !== 'number' || !Number.isSafeInteger(partial.rateLimitPerSecond) || partial.rateLimitPerSecond < 0)
  )
    throw new RangeError('faults.rateLimitPerSecond must be a whole number of 0 or more (0 = no limit)');
  nonNegative('latencyMs', partial.latencyMs);
  nonNegative('latencyJitterMs', partial.latencyJitterMs);
  flag('wwDown', partial.wwDown);
  flag('dropAfterProcessing', partial.dropAfterProcessing);
  if (partial.providerErrors !== undefined) checkCodeShares('faults.providerErrors', partial.providerErrors, true);
}

/** S50: a latency drawn uniformly from `base ± jitter` with `u` in [0, 1), in whole ms, never below 0. Pure. */
export function jitteredLatency(base: number, jitter: number, u: number): number {
  return Math.max(0, Math.round(base + (2 * u - 1) * jitter));
}

/**
 * Fault state and its random draws. Send failures, drops and provider errors draw from their own streams
 * of the same seed, so turning one on does not shift another's sequence.
 */
export class Faults {
  private current: ActiveFaults = { ...NO_FAULTS };
  private readonly failRandom: () => number;
  private readonly dropRandom: () => number;
  private readonly providerRandom: () => number;
  private readonly latencyRandom: () => number;

  constructor(seed: number, initial: SimFaults = {}) {
    this.failRandom = seededRandom(seed);
    this.dropRandom = seededRandom(seed ^ 0x5bd1e995);
    this.providerRandom = seededRandom(seed ^ 0x2545f491);
    this.latencyRandom = seededRandom(seed ^ 0x68e31da4);
    this.set(initial);
  }

  get(): ActiveFaults {
    return this.current;
  }

  set(partial: SimFaults): void {
    validateFaults(partial);
    const defined = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined));
    this.current = { ...this.current, ...defined };
    if (partial.providerErrors !== undefined)
      this.current.providerErrors = checkCodeShares('faults.providerErrors', partial.providerErrors, true);
  }

  /** A copy the caller may keep or change. */
  snapshot(): ActiveFaults {
    return { ...this.current, providerErrors: { ...this.current.providerErrors } };
  }

  /** Whether this send fails by injection (failRate). */
  drawSendFailure(): boolean {
    const rate = this.current.failRate;
    return rate > 0 && (rate >= 1 || this.failRandom() < rate);
  }

  /** S48: the code this send fails with by `providerErrors` (one draw while any share is set), or undefined. */
  drawProviderError(): ProviderCode | undefined {
    const shares = this.current.providerErrors;
    if (totalShare(shares) <= 0) return undefined;
    return codeAt(shares, this.providerRandom());
  }

  /** The latency of this API request in ms: latencyMs, or a seeded draw from latencyMs ± latencyJitterMs (S50). */
  drawLatency(): number {
    const { latencyMs, latencyJitterMs } = this.current;
    return latencyJitterMs > 0 ? jitteredLatency(latencyMs, latencyJitterMs, this.latencyRandom()) : latencyMs;
  }

  /** Whether this API request is dropped (dropRate). */
  drawDrop(): boolean {
    const rate = this.current.dropRate;
    return rate > 0 && (rate >= 1 || this.dropRandom() < rate);
  }
}
