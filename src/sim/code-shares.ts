import { isProviderCode, providerCodeOf, type ProviderCode } from './provider-codes.js';

/** Shares (0..1) of sends or failures by provider code, e.g. `{131026: 0.05, 131049: 0.02}`. */
export type CodeShares = Partial<Record<ProviderCode, number>>;

/**
 * Checks `{code: share}` (keys may be JSON strings) and returns a clean copy; throws a RangeError naming
 * `field` for an unknown code, a share outside 0..1, or a total above 1 (`totalAtMostOne`).
 */
export function checkCodeShares(field: string, value: unknown, totalAtMostOne: boolean): CodeShares {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new RangeError(`${field} must be an object of provider code to share, e.g. {"131026": 0.05}`);
  const shares: CodeShares = {};
  let total = 0;
  for (const [key, share] of Object.entries(value)) {
    const code = providerCodeOf(key);
    if (code === undefined) throw new RangeError(`${field}: ${key} is not a provider code the simulator knows`);
    if (typeof share !== 'number' || !(share >= 0 && share <= 1))
      throw new RangeError(`${field}.${key} must be a share from 0 to 1`);
    shares[code] = share;
    total += share;
  }
  if (totalAtMostOne && total > 1 + 1e-9) throw new RangeError(`${field}: the shares add up to ${total}, more than 1`);
  return shares;
}

export function totalShare(shares: CodeShares): number {
  let total = 0;
  for (const share of Object.values(shares)) total += share ?? 0;
  return total;
}

/**
 * The code whose slice of [0, 1) holds `u`, the slices laid end to end in ascending code order;
 * undefined when `u` falls past the last slice (no error). Pure.
 */
export function codeAt(shares: CodeShares, u: number): ProviderCode | undefined {
  let edge = 0;
  for (const [key, share] of Object.entries(shares)) {
    edge += share ?? 0;
    const code = Number(key);
    if (u < edge && isProviderCode(code)) return code;
  }
  return undefined;
}

/** A code picked by weight (the shares scaled to a total of 1) with `u` in [0, 1); undefined when all are 0. */
export function pickWeighted(shares: CodeShares, u: number): ProviderCode | undefined {
  const total = totalShare(shares);
  return total > 0 ? codeAt(shares, u * total) : undefined;
}
