// The rate share: a run's claim on a sender number's rate, shared by every run on the store.
/**
 * Processes of one store sending from one number share its rate. Here: the types and the registry
 * both backends implement (`types.ts`; their persistence stays in `checkpoint/file/rate-shares.ts`
 * and `checkpoint/pg/rate-shares.ts`), the arithmetic deciding each share (`share.ts`, pure), how long
 * a claim lives (`lifetime.ts`), and the run's part that claims and renews (`claims.ts`). The gate that
 * holds a number's limiter to the share is a limiter, `run/share-gate.ts`. Imports nothing of the project.
 */
export type { RateClaim, RateShare, RateShareRegistry, ShareHolder } from './types.js';
export { evenShare, grantAmong, grantedShare, shareStep, type LiveClaim, type ShareStep } from './share.js';
export { RATE_SHARE_EXPIRY_MS, RATE_SHARE_LEAVE_MS, SHARE_RENEW_MS, SHARE_SETTLE_MS, leftAt, processGone, shareUsableUntil } from './lifetime.js';
export { shareNumbers, type RateShares, type RateSharesOptions, type SharedNumber } from './claims.js';
