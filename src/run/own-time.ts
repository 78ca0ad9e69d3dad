import type { ConcurrencySample, OwnTimeSample } from './concurrency.js';
import type { SendContext } from './context.js';

/**
 * A worker's own time on its contact, for the adaptive concurrency: the contact's time from its start to
 * its end, less the waits (for the limiter's permits and pacing, backoff sleeps) and less the requests'
 * time on the wire, per request. What is left is what the worker did itself: the write-ahead record, the
 * outcome's record, the ledger. The answer times alone under-size the workers when those writes are slow
 * (an fsync per record, a database round trip).
 */
export interface OwnTimeMeter {
  /** The worker's context: the run's, with a wire and a sleep that also count for this meter. */
  ctx: SendContext;
  /** A contact starts (after it was taken from the list). */
  start(): void;
  /** The contact ended: its own time per request, or undefined when it made no request or one was cut. */
  end(): OwnTimeSample | undefined;
}

export function ownTimeMeter(run: SendContext): OwnTimeMeter {
  const { clock } = run;
  let startedAt = 0;
  let waitedMs = 0;
  let wireMs = 0;
  let requests = 0;
  let cut = false;
  let channelId: number | undefined;
  const wire = run.wire;
  const ctx: SendContext = {
    ...run,
    sleep: async (ms, signal) => {
      const from = clock();
      try {
        await run.sleep(ms, signal);
      } finally {
        waitedMs += clock() - from;
      }
    },
    wire: {
      sent: () => wire?.sent(),
      waited: (ms) => {
        waitedMs += ms;
      },
      ended: (sample: ConcurrencySample | undefined) => {
        requests += 1;
        if (sample === undefined) cut = true;
        else {
          wireMs += sample.latencyMs;
          channelId = sample.channelId;
        }
        wire?.ended(sample);
      },
    },
  };
  return {
    ctx,
    start() {
      startedAt = clock();
      waitedMs = 0;
      wireMs = 0;
      requests = 0;
      cut = false;
      channelId = undefined;
    },
    end() {
      if (requests === 0 || cut) return undefined;
      const ms = Math.max(0, (clock() - startedAt - waitedMs - wireMs) / requests);
      return channelId === undefined ? { ms } : { ms, channelId };
    },
  };
}
