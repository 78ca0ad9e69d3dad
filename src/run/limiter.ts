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
  return new PacedLimiter(options);
}

/**
 * bottleneck's ticks hand out the permits (`acquire`); `pace` holds the exact caps right before a send.
 * Its public members are bound functions, so a caller may pass them around alone.
 */
class PacedLimiter implements RateLimiter {
  private readonly clock: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly rate: number;
  /** Permits a tick grants at the asked rate. */
  private readonly k: number;
  private readonly perMinute: number | undefined;
  private readonly bottleneck: Bottleneck;
  private readonly waiters: Waiter[] = [];
  /** Send times, oldest first, at most perMinute of them. */
  private readonly lastMinute: number[] = [];
  private factor = 1;
  private pausedUntil = 0;
  /** When the last tick granted permits, and the fraction of a permit it still owed. */
  private lastTick: number | undefined;
  private owedCarry = 0;
  /** Time of the last 429 or of the last recovery step. */
  private lastAdjust = 0;
  private onStop: () => void = () => undefined;
  private readonly stopped$ = new Promise<void>((resolve) => (this.onStop = resolve));
  /** Send times of the last PACE_WINDOW_MS, oldest first (from `first` on). */
  private readonly sentTimes: number[] = [];
  private first = 0;
  private paceChain: Promise<void> = Promise.resolve();
  private tickScheduled = false;
  private stopped = false;

  constructor(options: LimiterOptions) {
    this.clock = options.clock ?? Date.now;
    this.sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    this.rate = options.perSecond;
    this.k = Math.max(1, Math.ceil(this.rate / 100));
    this.perMinute = options.perMinute;
    this.bottleneck = new Bottleneck({ maxConcurrent: 1, minTime: this.minTimeFor(1) });
  }

  readonly pace = (): Promise<void> => {
    const turn = this.paceChain.then(() => this.paceOne());
    this.paceChain = turn.catch(() => undefined);
    return turn;
  };

  readonly acquire = (signal?: AbortSignal): Promise<void> => {
    if (this.stopped) return Promise.reject(new Error('the rate limiter is stopped'));
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
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal.reason as Error);
        });
      }
      this.waiters.push(waiter);
      this.pump();
    });
  };

  readonly backOff = (ms: number): void => {
    const now = this.clock();
    this.pausedUntil = Math.max(this.pausedUntil, now + ms);
    this.lastAdjust = now;
    this.setFactor(this.factor * SLOWDOWN);
  };

  readonly currentRate = (): number => this.rate * this.factor;

  readonly stop = async (): Promise<void> => {
    this.stopped = true;
    this.onStop();
    for (const w of this.waiters.splice(0)) w.reject(new Error('the rate limiter is stopped'));
    await this.bottleneck.stop({ dropWaitingJobs: true }).catch(() => undefined);
    await this.bottleneck.disconnect();
  };

  private minTimeFor(factor: number): number {
    return (1000 * this.k) / (this.rate * factor);
  }

  private pause(ms: number): Promise<unknown> {
    return Promise.race([this.sleep(ms), this.stopped$]);
  }

  private setFactor(next: number): void {
    this.factor = Math.min(1, Math.max(MIN_FACTOR, next));
    this.bottleneck.updateSettings({ minTime: this.minTimeFor(this.factor) });
  }

  /** One bottleneck job: after a 429's pause, a recovery step when due, then this tick's permits. */
  private async tick(): Promise<void> {
    let now = this.clock();
    if (this.pausedUntil > now) {
      await this.pause(this.pausedUntil - now);
      now = this.clock();
    }
    if (this.factor < 1 && now - this.lastAdjust >= RECOVERY_MS) {
      this.lastAdjust = now; // one step per quiet period
      this.setFactor(this.factor * RECOVERY_STEP);
    }
    const tickPermits = permitsForTick(this.k, this.rate * this.factor, this.lastTick === undefined ? undefined : now - this.lastTick, this.owedCarry);
    this.lastTick = now;
    this.owedCarry = tickPermits.carry;
    for (let granted = 0; granted < tickPermits.permits && !this.stopped; granted++) {
      const waiter = this.waiters.shift();
      if (waiter === undefined) break;
      waiter.resolve();
    }
  }

  /** At most one tick job scheduled at a time, and only while requests wait. */
  private pump(): void {
    if (this.tickScheduled || this.stopped || this.waiters.length === 0) return;
    this.tickScheduled = true;
    this.bottleneck
      .schedule(() => this.tick())
      .catch(() => undefined)
      .finally(() => {
        this.tickScheduled = false;
        this.pump();
      });
  }

  /** Waits until a send keeps every second under the rate, every minute under per_minute, and no 429's pause holds. */
  private async paceOne(): Promise<void> {
    for (;;) {
      const now = this.clock();
      if (this.stopped) return;
      const wait = this.paceWait(now);
      if (wait === 0) break;
      await this.pause(wait);
    }
    const now = this.clock();
    this.sentTimes.push(now);
    if (this.perMinute !== undefined) this.lastMinute.push(now);
  }

  /** How long a send at `now` must wait (0: it may go); drops the send times that no longer count. */
  private paceWait(now: number): number {
    if (this.pausedUntil > now) return this.pausedUntil - now;
    const times = this.sentTimes;
    while (this.first < times.length && (times[this.first] ?? 0) <= now - PACE_WINDOW_MS) this.first++;
    if (this.first > 1024) {
      times.splice(0, this.first);
      this.first = 0;
    }
    const cap = Math.max(1, Math.floor(this.rate * this.factor));
    if (times.length - this.first >= cap) return (times[this.first] ?? now) + PACE_WINDOW_MS - now;
    if (this.perMinute !== undefined && this.lastMinute.length >= this.perMinute) {
      const wait = (this.lastMinute[0] ?? now) + 60_000 - now;
      if (wait > 0) return wait;
      this.lastMinute.shift();
      return this.paceWait(now);
    }
    return 0;
  }
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
