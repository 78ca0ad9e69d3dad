import type { Job } from '../../job/index.js';
import type { ChannelInfo } from '../../plan/index.js';
import { createRateLimiter, createSenderPool, type RateLimiter, type SenderPool } from '../../run/index.js';

/** One number's figures for people (summary, status, run log). */
export interface PoolNumberFigures {
  channelId: number;
  /** First messages accepted from it in this run. */
  sent: number;
  failed: number;
  /** Its rate, rate.per_second: no second of the run went above it. */
  perSecond: number;
  /** The rate it reached in this run: its accepted first messages over the time from its first to its last, per second (one decimal); absent below two. */
  reachedPerSecond?: number;
  /** When (ISO time) and why it stopped sending for the rest of the run, with the provider's words. */
  drained?: { at: string; code: number; error: string };
}

/**
 * The run's pool when the job names several numbers (`remembered`: the send ledger's number of a phone, which keeps it there): the first number goes through the run's limiter, each
 * other through one of its own at the same rate (rate.per_second is per number). Undefined for one number.
 */
export function senderPoolFor(
  pool: readonly ChannelInfo[],
  first: RateLimiter,
  rate: Job['rate'],
  remembered?: (phone: string) => number | undefined,
  /** Puts each other number's limiter under this process's share of its rate (`rate-share/`). */
  shared: (channel: ChannelInfo, limiter: RateLimiter) => RateLimiter = (_, limiter) => limiter,
): SenderPool | undefined {
  if (pool.length < 2) return undefined;
  return createSenderPool(
    pool.map((channel, i) => ({
      channel,
      limiter: i === 0 ? first : shared(channel, createRateLimiter({ perSecond: rate.per_second, ...(rate.per_minute ? { perMinute: rate.per_minute } : {}) })),
    })),
    remembered,
  );
}

/**
 * The rate a number reached, in first messages per second (one decimal): n accepted over a second or more make n − 1 intervals
 * from the first to the last; n accepted within less than a second reached n in that second. Absent below two. Pure.
 */
export function reachedRate(sent: number, firstAt: number | undefined, lastAt: number | undefined): number | undefined {
  if (sent < 2 || firstAt === undefined || lastAt === undefined) return undefined;
  const span = lastAt - firstAt;
  if (span < 1000) return sent;
  return Math.round(((sent - 1) * 1000 * 10) / span) / 10;
}

export function poolFigures(pool: SenderPool, perSecond: number): PoolNumberFigures[] {
  return pool.figures().map((n) => {
    const reached = reachedRate(n.sent, n.firstSentAt, n.lastSentAt);
    return {
    channelId: n.channelId,
    sent: n.sent,
    failed: n.failed,
    perSecond,
    ...(reached !== undefined && { reachedPerSecond: reached }),
    ...(n.drained && { drained: { at: new Date(n.drained.at).toISOString(), code: n.drained.code, error: n.drained.error } }),
    };
  });
}
