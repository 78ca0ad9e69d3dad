import type { ChannelInfo } from '../plan/index.js';
import type { RateLimiter } from './limiter.js';

/**
 * A pool of numbers of the business (a job's `channel_id` list): each with its own rate limiter, and the
 * stable choice of a contact's number. Pure but for the limiters it holds.
 */

/** One number of the pool and the limiter that keeps it at its own rate. */
export interface SenderNumber {
  channel: ChannelInfo;
  limiter: RateLimiter;
}

/** FNV-1a, 32 bits: a stable hash of a string (the same on every machine and run). */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // A final mix so that ids differing in one digit do not rank alike.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  return h >>> 0;
}

/**
 * Rendezvous (highest random weight) hashing: the number of `ids` whose hash with the phone is highest. The same
 * phone and pool choose the same number on every run, resume and job; removing a number moves only its own
 * phones, spread over the others.
 */
export function rendezvousNumber(phone: string, ids: readonly number[]): number {
  let best: number | undefined;
  let bestWeight = -1;
  for (const id of ids) {
    const weight = fnv1a(`${id}:${phone}`);
    if (weight > bestWeight || (weight === bestWeight && best !== undefined && id < best)) {
      best = id;
      bestWeight = weight;
    }
  }
  if (best === undefined) throw new RangeError('a pool has at least one number');
  return best;
}

/**
 * The number a contact goes from: its own (the number the store last sent it a first message from,
 * `remembered`, when it is in the pool; else the stable choice over the whole pool), so its conversation is
 * there; or, when its own is drained, the stable choice over the numbers still sending (`moved`: an earlier
 * conversation of the contact is on the drained number and is not used). Undefined when every number is drained.
 */
export function contactNumber(phone: string, pool: readonly number[], live: readonly number[], remembered?: number): { id: number; moved: boolean } | undefined {
  const own = remembered !== undefined && pool.includes(remembered) ? remembered : rendezvousNumber(phone, pool);
  if (live.includes(own)) return { id: own, moved: false };
  return live.length === 0 ? undefined : { id: rendezvousNumber(phone, live), moved: true };
}

/** Why and when a number stopped sending for the rest of the run, with the provider's words. */
export interface Drained {
  at: number;
  code: number;
  error: string;
}

/** The run's pool: the numbers, which are drained, and each contact's number now. */
export interface SenderPool {
  readonly numbers: readonly SenderNumber[];
  /** The number this contact goes from now (see `contactNumber`); undefined when every number is drained. */
  numberFor(phone: string): { number: SenderNumber; moved: boolean } | undefined;
  /** Nothing more goes out from this number in this run. Returns false when it was drained already. */
  drain(id: number, why: Drained): boolean;
  isDrained(id: number): boolean;
  readonly drained: ReadonlyMap<number, Drained>;
  /** Counts one first message of this number: accepted (`sent`) or ended failed; `at` (ms, the run's clock) when it was accepted. */
  tally(id: number, outcome: 'sent' | 'failed', at?: number): void;
  /** Per number, in the pool's order: first messages sent and failed, and when and why it was drained. */
  figures(): NumberFigures[];
}

export interface NumberFigures {
  channelId: number;
  sent: number;
  failed: number;
  /** When (ms, the run's clock) its first and its last accepted first message of this run were recorded. */
  firstSentAt?: number;
  lastSentAt?: number;
  drained?: Drained;
}

/** `remembered`: the number the store last sent a phone a first message from (the send ledger), if any. */
export function createSenderPool(numbers: readonly SenderNumber[], remembered?: (phone: string) => number | undefined): SenderPool {
  if (numbers.length === 0) throw new RangeError('a pool has at least one number');
  const ids = numbers.map((n) => n.channel.id);
  const byId = new Map(numbers.map((n) => [n.channel.id, n] as const));
  const drained = new Map<number, Drained>();
  let live = ids;
  const counts = new Map<number, { sent: number; failed: number; first?: number; last?: number }>(ids.map((id) => [id, { sent: 0, failed: 0 }]));
  return {
    numbers,
    drained,
    numberFor(phone) {
      const chosen = contactNumber(phone, ids, live, remembered?.(phone));
      const number = chosen && byId.get(chosen.id);
      return chosen && number ? { number, moved: chosen.moved } : undefined;
    },
    drain(id, why) {
      if (drained.has(id) || !byId.has(id)) return false;
      drained.set(id, why);
      live = ids.filter((n) => !drained.has(n));
      return true;
    },
    isDrained: (id) => drained.has(id),
    tally(id, outcome, at) {
      const c = counts.get(id);
      if (!c) return;
      c[outcome] += 1;
      if (outcome === 'sent' && at !== undefined) {
        c.first ??= at;
        c.last = at;
      }
    },
    figures: () =>
      ids.map((id) => {
        const c = counts.get(id) ?? { sent: 0, failed: 0 };
        const why = drained.get(id);
        return {
          channelId: id,
          sent: c.sent,
          failed: c.failed,
          ...(c.first !== undefined && { firstSentAt: c.first }),
          ...(c.last !== undefined && { lastSentAt: c.last }),
          ...(why && { drained: why }),
        };
      }),
  };
}
