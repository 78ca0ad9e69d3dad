/**
 * The arithmetic deciding each run's share (pure). Each sender takes an even share of the number's
 * rate; the store grants a claim what it held, or less, at once, and more only out of what the other
 * live claims leave, so the live claims never add up to more than the rate.
 */
import type { RateClaim, RateShare } from './types.js';

/** One of `senders` processes' share of `perSecond`: an even split, at least 1 (the store grants no more than is left). */
export function evenShare(perSecond: number, senders: number): number {
  return Math.max(1, Math.floor(perSecond / Math.max(1, senders)));
}

export type ShareStep = { kind: 'keep' } | { kind: 'lower'; to: number } | { kind: 'raise'; to: number };

/** What a sender holding `held` does after the registry said how many share the number and at what rate. */
export function shareStep(held: number, seen: { senders: number; perSecond: number }): ShareStep {
  const to = evenShare(seen.perSecond, seen.senders);
  if (held > to) return { kind: 'lower', to };
  if (held < to) return { kind: 'raise', to };
  return { kind: 'keep' };
}

/**
 * The share a claim is granted: what it held (`held`, 0 when its row lapsed or is new) may be kept
 * or lowered at once; above it, only what `perSecond` leaves after the `others`' live claims.
 */
export function grantedShare(held: number, want: number, perSecond: number, others: number): number {
  const asked = Math.max(0, Math.floor(want));
  if (asked <= held) return asked;
  return Math.max(held, Math.min(asked, perSecond - others));
}

/** A live row of the registry: a sender's claim and the rate its job gives the number. */
export interface LiveClaim {
  sender: string;
  claim: number;
  perSecond: number;
}

/**
 * The registry's answer to `claim` given the number's live rows (the claimant's own among them when it
 * holds one): its grant, the senders counting it, and the lowest rate their jobs give the number.
 */
export function grantAmong(claim: Pick<RateClaim, 'sender' | 'want' | 'perSecond'>, live: Iterable<LiveClaim>): RateShare {
  let held = 0;
  let others = 0;
  let lowest = claim.perSecond;
  let senders = 1;
  for (const row of live) {
    if (row.sender === claim.sender) {
      held = row.claim;
      continue;
    }
    senders += 1;
    others += row.claim;
    lowest = Math.min(lowest, row.perSecond);
  }
  return { granted: grantedShare(held, claim.want, lowest, others), senders, perSecond: lowest };
}
