import Bottleneck from 'bottleneck';
import { onAbort } from '../api/index.js';

/**
 * The run's one gate to the platform: every request (first messages, retries, follow-ups, CRM calls)
 * takes a permit first. bottleneck stays behind this interface so it could be swapped.
 *
 * Shape chosen from bottleneck's own measurements (shared/LIBRARY-NOTES.md): one bottleneck job per
 * tick, `maxConcurrent: 1`, `minTime = 1000·k/rate`, each tick granting k = ceil(rate/100) permits.
 * No reservoir (it drifts and bursts), no whole-list queue (only waiting requests are queued, and
 * at most one tick job is scheduled at a time). `pace()`, right before the send, holds the exact caps:
 * the rate in any second, `per_minute` in any minute, and a 429's pause.
 */
export interface RateLimiter {
  /** Resolves when one request may go; rejects if the signal aborts or the limiter stops. */
  acquire(signal?: AbortSignal): Promise<void>;
  /**
   * The last gate, right before the request leaves (after its write-ahead record): waits until fewer
   * than the rate's requests went out in the last second. A slow disk flush between `acquire` and the
   * send can bunch requests; this keeps any one second at or below the rate.
   */
  pace(): Promise<void>;
  /** A 429 arrived: hold every request for `ms`, and slow the rate down for everyone. */
  backOff(ms: number): void;
  /** The permits per second currently allowed (lower than asked after 429s). */
  currentRate(): number;
  stop(): Promise<void>;
}

export interface LimiterOptions {
  perSecond: number;
  perMinute?: number;
  clock?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** After a 429 the rate is multiplied by this, down to MIN_FACTOR of the asked rate. */
const SLOWDOWN = 0.75;
const MIN_FACTOR = 0.1;
/** Each quiet RECOVERY_MS without a 429, the rate climbs back by RECOVERY_STEP. */
const RECOVERY_MS = 5_000;
const RECOVERY_STEP = 1.1;
/** pace() counts the sends of the last second plus this guard, for timer and network jitter. */
const PACE_WINDOW_MS = 1_020;

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

export function createRateLimiter(options: LimiterOptions): RateLimiter {
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const rate = options.perSecond;
  const k = Math.max(1, Math.ceil(rate / 100));
  const minTimeFor = (factor: number) => (1000 * k) / (rate * factor);

  const bottleneck = new Bottleneck({ maxConcurrent: 1, minTime: minTimeFor(1) });
  const waiters: Waiter[] = [];
  const perMinute = options.perMinute;
  const lastMinute: number[] = []; // send times, oldest first, at most perMinute of them
  let factor = 1;
  let pausedUntil = 0;
  /** When the last tick granted permits, and the fraction of a permit it still owed. */
  let lastTick: number | undefined;
  let owedCarry = 0;
  /** Time of the last 429 or of the last recovery step. */
  let lastAdjust = 0;
  let onStop: () => void = () => undefined;
  const stopped$ = new Promise<void>((resolve) => (onStop = resolve));
  const pause = (ms: number) => Promise.race([sleep(ms), stopped$]);
  /** Send times of the last PACE_WINDOW_MS, oldest first (from `first` on). */
  const sentTimes: number[] = [];
  let first = 0;
  let paceChain: Promise<void> = Promise.resolve();
  let tickScheduled = false;
  let stopped = false;

  function setFactor(next: number) {
    factor = Math.min(1, Math.max(MIN_FACTOR, next));
    bottleneck.updateSettings({ minTime: minTimeFor(factor) });
  }

  async function tick(): Promise<void> {
    let now = clock();
    if (pausedUntil > now) {
      await pause(pausedUntil - now);
      now = clock();
    }
    if (factor < 1 && now - lastAdjust >= RECOVERY_MS) {
      lastAdjust = now; // one step per quiet period
      setFactor(factor * RECOVERY_STEP);
    }
    const tickPermits = permitsForTick(k, rate * factor, lastTick === undefined ? undefined : now - lastTick, owedCarry);
    lastTick = now;
    owedCarry = tickPermits.carry;
    for (let granted = 0; granted < tickPermits.permits && waiters.length > 0 && !stopped; granted++) waiters.shift()!.resolve();
  }

  function pump() {
    if (tickScheduled || stopped || waiters.length === 0) return;
    tickScheduled = true;
    bottleneck
      .schedule(tick)
      .catch(() => undefined)
      .finally(() => {
        tickScheduled = false;
        pump();
      });
  }

  async function paceOne(): Promise<void> {
    for (;;) {
      const now = clock();
      if (stopped) return;
      if (pausedUntil > now) {
        await pause(pausedUntil - now);
        continue;
      }
      while (first < sentTimes.length && sentTimes[first]! <= now - PACE_WINDOW_MS) first++;
      if (first > 1024) {
        sentTimes.splice(0, first);
        first = 0;
      }
      const cap = Math.max(1, Math.floor(rate * factor));
      if (sentTimes.length - first >= cap) {
        await pause(sentTimes[first]! + PACE_WINDOW_MS - now);
        continue;
      }
      if (perMinute !== undefined && lastMinute.length >= perMinute) {
        const wait = lastMinute[0]! + 60_000 - now;
        if (wait > 0) {
          await pause(wait);
          continue;
        }
        lastMinute.shift();
      }
      sentTimes.push(now);
      if (perMinute !== undefined) lastMinute.push(now);
      return;
    }
  }

  return {
    pace() {
      const turn = paceChain.then(paceOne);
      paceChain = turn.catch(() => undefined);
      return turn;
    },
    acquire(signal) {
      if (stopped) return Promise.reject(new Error('the rate limiter is stopped'));
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      return new Promise<void>((resolve, reject) => {
        // One abort listener per signal for every waiter (onAbort): a pass's many waits on one signal
        // would otherwise pass Node's limit of ten listeners.
        let forget = (): void => undefined;
        const waiter: Waiter = {
          resolve: () => {
            forget();
            resolve();
          },
          reject: (err) => {
            forget();
            reject(err);
          },
        };
        if (signal) {
          forget = onAbort(signal, () => {
            const i = waiters.indexOf(waiter);
            if (i >= 0) waiters.splice(i, 1);
            reject(signal.reason as Error);
          });
        }
        waiters.push(waiter);
        pump();
      });
    },
    backOff(ms) {
      const now = clock();
      pausedUntil = Math.max(pausedUntil, now + ms);
      lastAdjust = now;
      setFactor(factor * SLOWDOWN);
    },
    currentRate: () => rate * factor,
    async stop() {
      stopped = true;
      onStop();
      for (const w of waiters.splice(0)) w.reject(new Error('the rate limiter is stopped'));
      await bottleneck.stop({ dropWaitingJobs: true }).catch(() => undefined);
      await bottleneck.disconnect();
    },
  };
}

/**
 * The permits one tick grants: k, or what the time since the last tick is worth at `perSecond` when
 * the tick came late (a busy event loop fires timers late, and each late tick would otherwise lose
 * its share of the rate), at most two ticks' worth; `carry` is the fraction of a permit still owed
 * (at most k). Pure. pace() still holds every second to the rate.
 */
export function permitsForTick(k: number, perSecond: number, sinceLastTickMs: number | undefined, carry: number): { permits: number; carry: number } {
  const owed = sinceLastTickMs === undefined ? k : (Math.max(0, sinceLastTickMs) * perSecond) / 1000 + carry;
  const permits = Math.max(k, Math.min(2 * k, Math.floor(owed)));
  return { permits, carry: Math.min(k, Math.max(0, owed - permits)) };
}

/** No rate limit at all (benchmarks of the executor itself); concurrency still bounds the run. */
export function unlimitedLimiter(): RateLimiter {
  return {
    acquire: (signal) => (signal?.aborted ? Promise.reject(signal.reason as Error) : Promise.resolve()),
    pace: () => Promise.resolve(),
    backOff: () => undefined,
    currentRate: () => Number.POSITIVE_INFINITY,
    stop: async () => undefined,
  };
}
