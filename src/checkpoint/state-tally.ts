import { NO_ANSWER } from './apply-event.js';
import type { ContactState } from './types.js';

/**
 * The counts a job's states are read for (status, report, a run's summary: by status, action, error
 * and its class, after-send step, funnel stage, deferred reason) kept as counters: each state counts
 * under its *tally*, the part of it those counts read (no phone, no ids, no times but the ones a count
 * shows), so most of a million contacts share a handful of tallies. A table moves a state's count from
 * its old tally to its new one as it changes, and a snapshot keeps the counters beside the columns:
 * reading the counts of a million contacts is a sum over the tallies, not a read of every state.
 */

/** A tally and how many states have it. */
export interface StateTally {
  /** A state holding only what the counts read (its phone is empty): what a counter is given. */
  state: ContactState;
  count: number;
}

/** The tally of a state as JSON text: its key among the counters. Pure. */
export function tallyKey(s: ContactState): string {
  const t: Record<string, unknown> = { status: s.status };
  const fields = s as unknown as Record<string, unknown>;
  for (const key of ['action', 'reason', 'error', 'errorClass', 'notBefore', 'zone'] as const) if (fields[key] !== undefined) t[key] = fields[key];
  if (s.status === 'in_doubt' && s.error === NO_ANSWER && s.attemptAt !== undefined) t.attemptAt = s.attemptAt;
  const followups = fields.followups;
  if (typeof followups === 'object' && followups !== null) {
    const steps: Record<string, boolean> = {};
    for (const step in followups) if (Object.hasOwn(followups, step)) steps[step] = (followups as Record<string, unknown>)[step] === true;
    t.followups = steps;
  }
  const delivery = fields.delivery as Record<string, unknown> | undefined;
  if (typeof delivery === 'object' && delivery !== null) {
    t.delivery = {
      status: delivery.status,
      ...(delivery.failureCode !== undefined && { failureCode: delivery.failureCode }),
      ...(delivery.failureReason !== undefined && { failureReason: delivery.failureReason }),
    };
  }
  return JSON.stringify(t);
}

/** The state a tally's key stands for (phone empty). */
export function tallyState(key: string): ContactState {
  return { phone: '', ...(JSON.parse(key) as object) } as ContactState;
}

/** Counters by tally: keys interned (0 stands for "not counted"), a count each. */
export class Tallies {
  readonly keys: string[] = [''];
  readonly counts: number[] = [0];
  private readonly index = new Map<string, number>();

  static from(keys: readonly string[], counts: readonly number[]): Tallies {
    const t = new Tallies();
    for (let i = 1; i < keys.length; i++) {
      const id = t.intern(keys[i] ?? '');
      t.counts[id] = (t.counts[id] ?? 0) + (counts[i] ?? 0);
    }
    return t;
  }

  intern(key: string): number {
    let id = this.index.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.keys.push(key);
      this.counts.push(0);
      this.index.set(key, id);
    }
    return id;
  }

  /** One state moves from tally `from` to tally `to` (0: none). */
  move(from: number, to: number): void {
    if (from !== 0) this.counts[from] = (this.counts[from] ?? 0) - 1;
    if (to !== 0) this.counts[to] = (this.counts[to] ?? 0) + 1;
  }

  /** The tallies with a count (`counts` instead of the kept ones when given), plus `extra` states (counted one each). */
  list(extra: Iterable<ContactState> = [], counts: readonly number[] = this.counts, options: TallyOptions = {}): StateTally[] {
    return listTallies(this.keys, counts, extra, options);
  }
}

/** How the tallies are listed. */
export interface TallyOptions {
  /**
   * false: a reader that does not look at when an in-doubt contact's request went (no run holds the
   * job, so none is in flight) gets the tallies that differ only by that time as one, without it: a
   * handful of tallies instead of one per such contact. Default true.
   */
  attemptTimes?: boolean;
}

/** Where an in-doubt tally's attempt time starts in its key (tallyKey writes it after the fields before it). */
const ATTEMPT_AT = ',"attemptAt":"';

/**
 * The span of a key's attempt time, `,"attemptAt":"…"` ([start, end)), or undefined when it has none.
 * `,"` is never inside a JSON string (a quote there is escaped), and no nested field is an `attemptAt`
 * text: the span found is the tally's own.
 */
function attemptSpan(key: string): readonly [number, number] | undefined {
  const start = key.indexOf(ATTEMPT_AT);
  if (start === -1) return undefined;
  for (let i = start + ATTEMPT_AT.length; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c === 0x22) return [start, i + 1];
    if (c === 0x5c) i += 1;
  }
  return undefined;
}

/**
 * The tallies with a count of the counters `keys` and `counts` (by id, 0 not counted; a repeated key
 * counts under its first id), plus `extra` states (one each), in the counters' order, then the extra
 * ones' new tallies in theirs. Each tally's state is decoded once. Pure.
 */
export function listTallies(keys: readonly string[], counts: readonly number[], extra: Iterable<ContactState>, options: TallyOptions = {}): StateTally[] {
  const merge = options.attemptTimes === false;
  const byKey = new Map<string, number>();
  const add = (key: string, count: number) => byKey.set(key, (byKey.get(key) ?? 0) + count);
  // The key last merged, by its text around the attempt time: the next key, mostly the same but for
  // its time, is told to be the same tally without a new text (one per tally, not one per contact).
  let before = '';
  let after = '';
  let merged: string | undefined;
  // A key without its attempt time: the text tallyKey gives the state without it.
  const keyOf = (key: string): string => {
    if (!merge) return key;
    const span = attemptSpan(key);
    if (span === undefined) return key;
    const [start, end] = span;
    if (merged !== undefined && start === before.length && key.length - end === after.length && key.startsWith(before) && key.endsWith(after)) return merged;
    before = key.slice(0, start);
    after = key.slice(end);
    merged = before + after;
    return merged;
  };
  // Every counter in order, an empty one too: a tally's place is its counter's, whatever adds to it.
  for (let id = 1; id < keys.length; id++) add(keyOf(keys[id] ?? ''), counts[id] ?? 0);
  for (const s of extra) add(keyOf(tallyKey(s)), 1);
  const out: StateTally[] = [];
  for (const [key, count] of byKey) if (count > 0) out.push({ state: tallyState(key), count });
  return out;
}
