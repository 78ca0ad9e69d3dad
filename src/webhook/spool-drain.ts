/**
 * The loop that applies the spool when the store is back: a pass at a time (the caller's: apply the
 * oldest events, release them), and after a failed pass a wait that grows (`drainDelayMs`) before
 * the next, with `sleep` injected (a test moves on when it wants, never on the wall clock). It stops
 * when a pass says nothing is left, or when stopped; `wake` starts it again.
 */

export const DRAIN_FIRST_DELAY_MS = 250;
export const DRAIN_MAX_DELAY_MS = 10_000;

/** The wait before the next pass after `failures` failed ones: 250 ms doubling to 10 s, each between half and all of it (jitter). Pure. */
export function drainDelayMs(failures: number, random: () => number = Math.random): number {
  const full = Math.min(DRAIN_MAX_DELAY_MS, DRAIN_FIRST_DELAY_MS * 2 ** Math.max(0, failures - 1));
  return Math.max(DRAIN_FIRST_DELAY_MS / 2, Math.round(full * 0.5 * (1 + random())));
}

/** Waits `ms`; rejects (or resolves early) when `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface DrainOptions {
  /** One pass: true when nothing is left to do; throws when the store failed. */
  pass(): Promise<boolean>;
  sleep: Sleep;
  /** Told each failed pass (1 for the first of a row). */
  onFailure(err: unknown, failures: number): void;
  /** Told when a pass succeeds after failed ones. */
  onRecovery(): void;
}

export interface Drain {
  /** Starts the loop unless it runs (or was stopped). */
  wake(): void;
  readonly running: boolean;
  /** Resolves when the loop (if running) has ended. */
  ended(): Promise<void>;
  /** Stops the loop: its sleep is cut short, the pass under way finishes. */
  stop(): Promise<void>;
}

export function drainLoop(options: DrainOptions): Drain {
  const stopping = new AbortController();
  let running = false;
  let loop: Promise<void> = Promise.resolve();

  async function run(): Promise<void> {
    let failures = 0;
    try {
      while (!stopping.signal.aborted) {
        try {
          const done = await options.pass();
          if (failures > 0) options.onRecovery();
          failures = 0;
          if (done) return;
        } catch (err) {
          failures += 1;
          options.onFailure(err, failures);
          if (stopping.signal.aborted) return;
          await options.sleep(drainDelayMs(failures), stopping.signal).catch(() => undefined);
        }
      }
    } finally {
      running = false;
    }
  }

  return {
    get running() {
      return running;
    },
    wake() {
      if (running || stopping.signal.aborted) return;
      running = true;
      loop = run();
    },
    ended: () => loop,
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
