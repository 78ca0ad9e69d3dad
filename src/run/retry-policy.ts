/**
 * Pure retry decisions (stripe-node's RequestSender shape): how long to wait before attempt n,
 * and how to read a 429's Retry-After. No clock, no randomness of its own: both are passed in.
 */

/** The longest single wait between two tries of one request. */
export const MAX_BACKOFF_MS = 60_000;

/**
 * Exponential backoff with jitter: base·2^(attempt-1), capped, times 0.5·(1 + random),
 * never below the base delay. `attempt` counts from 1 (the wait before the first retry).
 */
export function backoffMs(attempt: number, baseMs: number, random: number): number {
  const exp = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = exp * 0.5 * (1 + random);
  return Math.round(Math.max(baseMs, Math.min(MAX_BACKOFF_MS, jittered)));
}

/**
 * How long a 429 asks us to wait: the platform's Retry-After when it gave one (already turned into
 * milliseconds by the client), else exponential backoff from one second.
 */
export function rateLimitWaitMs(retryAfterMs: number | undefined, consecutive429s: number, random: number): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return Math.min(MAX_BACKOFF_MS, Math.max(retryAfterMs, 50));
  }
  return backoffMs(consecutive429s, 1_000, random);
}
