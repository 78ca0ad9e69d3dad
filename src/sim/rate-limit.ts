import { RATE_WINDOW_MS } from './assumptions.js';

/**
 * Sliding one-second window over accepted requests (S12): a ring of the last `limit` acceptance times.
 * A request is accepted when the oldest of them is at least a window old, so no window of
 * RATE_WINDOW_MS ever holds more than `limit` accepted requests. O(1) per request.
 */
export class RateLimiter {
  private readonly times: Float64Array;
  private next = 0;

  constructor(readonly limit: number) {
    this.times = new Float64Array(limit).fill(-Infinity);
  }

  /** Accepts (returns 0) or refuses (returns the Retry-After in whole seconds, at least 1). */
  take(wallMs: number): number {
    const oldest = this.times[this.next]!;
    const freeAt = oldest + RATE_WINDOW_MS;
    if (wallMs < freeAt) return Math.max(1, Math.ceil((freeAt - wallMs) / 1000));
    this.times[this.next] = wallMs;
    this.next = (this.next + 1) % this.limit;
    return 0;
  }
}
