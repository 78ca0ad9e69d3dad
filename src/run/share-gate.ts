import { onAbort } from '../api/index.js';
import type { ShareHolder } from '../rate-share/index.js';
import type { RateLimiter } from './limiter.js';

/**
 * A number's limiter under this process's share of the number's rate (several processes send from
 * it): requests go through the inner limiter (the job's rate, 429 pauses), then through this gate,
 * which keeps the process's own sends of the last second (and 20 ms of jitter) at or below its share
 * and lets nothing through while it holds no share or its claim is no longer renewed. The run's claims
 * (`rate-share/claims.ts`) set its share.
 */
export interface ShareGate extends RateLimiter, ShareHolder {
  /** The share it holds now. */
  share(): number;
}

/** As in the limiter's pace(): a second and a guard for timer and network jitter. */
const WINDOW_MS = 1_020;

export function shareGate(inner: RateLimiter, options: { clock?: () => number; sleep?: (ms: number) => Promise<void> } = {}): ShareGate {
  const clock = options.clock ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let share = 0;
  let until = -Infinity;
  let stopped = false;
  /** Resolved (and replaced) whenever the share changes or the gate stops. */
  let changed = signal();
  const sent: number[] = [];
  let chain: Promise<void> = Promise.resolve();

  const usable = (now: number) => share > 0 && now < until;

  async function waitUsable(): Promise<void> {
    while (!stopped && !usable(clock())) await changed.promise;
    if (stopped) throw new Error('the rate limiter is stopped');
  }

  async function paceOne(): Promise<void> {
    for (;;) {
      await waitUsable();
      const now = clock();
      while (sent.length > 0 && sent[0]! <= now - WINDOW_MS) sent.shift();
      if (sent.length >= share) {
        const next = changed.promise;
        await Promise.race([sleep(sent[0]! + WINDOW_MS - now), next]);
        continue;
      }
      sent.push(now);
      return;
    }
  }

  return {
    async acquire(abort) {
      // Nothing is taken up while the process holds no share (a newcomer waits for the others to make room).
      if (!usable(clock())) {
        if (abort?.aborted) throw abort.reason as Error;
        let forget = (): void => undefined;
        const aborted = abort && new Promise<never>((_, reject) => (forget = onAbort(abort, () => reject(abort.reason as Error))));
        try {
          await (aborted ? Promise.race([waitUsable(), aborted]) : waitUsable());
        } finally {
          forget();
        }
      }
      return inner.acquire(abort);
    },
    async pace() {
      await inner.pace();
      const turn = chain.then(paceOne);
      chain = turn.catch(() => undefined);
      return turn;
    },
    backOff: (ms) => inner.backOff(ms),
    currentRate: () => Math.min(inner.currentRate(), share),
    setShare(perSecond, at) {
      share = Math.max(0, Math.floor(perSecond));
      until = at;
      const was = changed;
      changed = signal();
      was.resolve();
    },
    share: () => share,
    async stop() {
      stopped = true;
      changed.resolve();
      await inner.stop();
    },
  };
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
