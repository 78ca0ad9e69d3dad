import type { CheckpointEvent } from '../checkpoint/index.js';

/** Phones whose number is remembered for their after-send steps: far more than the requests ever in flight at once. */
const RECENT_PHONES = 10_000;

/** The requests a run has sent, by number, as its journal tells them. */
export interface RequestMeter {
  /** Each event of the send loop once recorded. */
  note(event: CheckpointEvent): void;
  /** Requests sent so far, all numbers together. */
  total(): number;
  /** Requests sent so far from the number (its channel id). */
  of(channel: string): number;
}

/**
 * Counts the requests a run sends, in the unit `rate.per_second` asks them: each first message tried
 * (its write-ahead `attempt`, retries included) and each after-send step's request (its outcome), on
 * the number it went from (a pool's contact's, else `single`). What the progress line and the metrics
 * compare with the rate asked.
 */
export function requestMeter(single: string): RequestMeter {
  const counts = new Map<string, number>();
  // A pool's after-send steps name no number: they go from the one the contact's first message went from.
  const numberOf = new Map<string, string>();
  let total = 0;
  const add = (channel: string) => {
    counts.set(channel, (counts.get(channel) ?? 0) + 1);
    total += 1;
  };
  return {
    note(event) {
      if (event.t === 'attempt') {
        const channel = event.channel_id !== undefined ? String(event.channel_id) : single;
        if (event.channel_id !== undefined) {
          numberOf.delete(event.phone);
          numberOf.set(event.phone, channel);
          if (numberOf.size > RECENT_PHONES) numberOf.delete(numberOf.keys().next().value ?? '');
        }
        add(channel);
      } else if (event.t === 'followup' && event.attempt !== true) {
        add(numberOf.get(event.phone) ?? single);
      }
    },
    total: () => total,
    of: (channel) => counts.get(channel) ?? 0,
  };
}
