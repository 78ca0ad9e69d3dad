/**
 * How processes sending from one number share its rate (pure; the store's registry holds the claims,
 * `app/rate-shares.ts` renews them). Each takes an even share of the number's rate; a sender lowers
 * its own pace first and gives the claim up only a settle window later, and raises its pace only after
 * the store granted the higher claim, so the live claims, and the paces under them, never add up to
 * more than the rate in any one second.
 */

/** How often a sender renews its claim and re-reads how many share the number. */
export const SHARE_RENEW_MS = 2_000;
/**
 * A lowered pace holds this long before the claim is lowered in the store (and a claim lapses this long
 * before its process stops using it): more than the pacing window (one second and 20 ms of jitter, `limiter.ts`),
 * so no second holds sends at the old pace and another sender's at its new share.
 */
export const SHARE_SETTLE_MS = 1_100;

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
 * Until when (clock ms) a claim renewed by a call that started at `renewedAt` may be used: the store lets
 * it lapse `expiryMs` after it received the call (not before `renewedAt`), and others may take it then;
 * its sender stops one settle window earlier.
 */
export function shareUsableUntil(renewedAt: number, expiryMs: number): number {
  return renewedAt + expiryMs - SHARE_SETTLE_MS;
}
