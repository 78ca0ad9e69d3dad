import { NO_ANSWER } from './apply-event.js';
import type { ContactState } from './types.js';

/**
 * The counts a job's states are read for (status, report, a run's summary: by status, action, error
 * and its class, after-send step, funnel stage, deferred reason) kept as counters: each state counts
 * under its *tally*, the part of it those counts read (no phone, no ids, no times but the ones a count
 * shows), so most of a million contacts share a handful of tallies. A table moves a state's count from
 * its old tally to its new one as it changes, and a snapshot keeps the counters beside the columns:
 * reading the counts of a million contacts is a sum over the tallies, not a read of every state.
 *
 * The one time a count reads besides those is when an in-doubt request with no answer went (status
 * tells a request of the running run, in flight, from an older one): it is not in the tally (else
 * each such contact would have one of its own), and a reader that asks for it (`attemptsSince`) gets
 * those tallies split in two by it, from the states' own attempt times (`AttemptSplits`).
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

/** Whether the states of a tally are in doubt with no answer: the ones whose attempt time status may read (`attemptsSince`). */
export function isAttemptTally(s: ContactState): boolean {
  return s.status === 'in_doubt' && s.error === NO_ANSWER;
}

/** When a state's request went (epoch ms as Date.parse reads its `attemptAt`), NaN when it does not say. */
export function attemptMs(s: ContactState): number {
  const at = (s as { attemptAt?: unknown }).attemptAt;
  return typeof at === 'string' ? Date.parse(at) : NaN;
}

/** Counters by tally: keys interned (0 stands for "not counted"), a count each. */
export class Tallies {
  readonly keys: string[] = [''];
  readonly counts: number[] = [0];
  private readonly index = new Map<string, number>();

  /** Counters kept with these keys and counts, at the same ids (the keys are distinct: `mergeAttemptTimes` makes them so). */
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

  /** The tallies with a count (`counts` instead of the kept ones when given), plus `extra` states (counted one each); `splits` as for listTallies. */
  list(extra: Iterable<ContactState> = [], counts: readonly number[] = this.counts, options: TallyOptions = {}, splits?: AttemptSplits): StateTally[] {
    return listTallies(this.keys, counts, extra, options, splits);
  }
}

/** How the tallies are listed. */
export interface TallyOptions {
  /**
   * Epoch ms (NaN: none known): the tallies in doubt with no answer come split in two, their states
   * attempted before it and the others (at or after it, or at a time not known), each part with the
   * `attemptAt` of one of its states (none when none is known): a reader that tells a request in
   * flight by its attempt time (`attemptAt` on or after a run's start) tells each part's states
   * alike. Absent: no attempt time is read, one tally each.
   */
  attemptsSince?: number;
}

/** Of a tally's states: how many were attempted before the time asked, and one attempt time (epoch ms, NaN: none) of each part. */
interface AttemptSplit {
  before: number;
  beforeAt: number;
  afterAt: number;
}

/**
 * The attempt times of the counted states of the tallies in doubt with no answer, split at `since`:
 * what a backend gathers from its rows (each state's own time) for listTallies.
 */
export class AttemptSplits {
  private readonly byId = new Map<number, AttemptSplit>();

  constructor(readonly since: number) {}

  /** One state counted under tally `id`, attempted at `at` (epoch ms, NaN: not known). */
  add(id: number, at: number): void {
    let split = this.byId.get(id);
    if (split === undefined) {
      split = { before: 0, beforeAt: NaN, afterAt: NaN };
      this.byId.set(id, split);
    }
    if (at < this.since) {
      split.before += 1;
      split.beforeAt = at;
    } else if (!Number.isNaN(at)) split.afterAt = at;
  }

  of(id: number): AttemptSplit | undefined {
    return this.byId.get(id);
  }
}

/**
 * Counters as kept by a program of before the attempt times left the tallies (each in-doubt state
 * with no answer counted under a key with its `attemptAt`), made as this one keeps them: each key
 * without its attempt time, the keys that are then the same as one (at the first one's place), and
 * the new id of each old one (undefined when no key changed: the ids are the same).
 */
export function mergeAttemptTimes(keys: readonly string[], counts: readonly number[]): { keys: string[]; counts: number[]; ids?: Uint32Array } {
  let changed = false;
  for (let id = 1; id < keys.length && !changed; id++) changed = attemptSpan(keys[id] ?? '') !== undefined;
  if (!changed) return { keys: [...keys], counts: [...counts] };
  const merged = new Tallies();
  const ids = new Uint32Array(keys.length);
  const strip = keyWithoutTime();
  for (let id = 1; id < keys.length; id++) {
    const to = merged.intern(strip(keys[id] ?? ''));
    ids[id] = to;
    merged.counts[to] = (merged.counts[to] ?? 0) + (counts[id] ?? 0);
  }
  return { keys: merged.keys, counts: merged.counts, ids };
}

/** Where an in-doubt tally's attempt time started in a key of before (tallyKey wrote it after the fields before it). */
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
 * A key without its attempt time: the text tallyKey gives the state now. The key last stripped is
 * kept by its text around the time: the next one, mostly the same but for its time, is told to be the
 * same tally without a new text.
 */
function keyWithoutTime(): (key: string) => string {
  let before = '';
  let after = '';
  let merged: string | undefined;
  return (key) => {
    const span = attemptSpan(key);
    if (span === undefined) return key;
    const [start, end] = span;
    if (merged !== undefined && start === before.length && key.length - end === after.length && key.startsWith(before) && key.endsWith(after)) return merged;
    before = key.slice(0, start);
    after = key.slice(end);
    merged = before + after;
    return merged;
  };
}

/**
 * The tallies with a count of the counters `keys` and `counts` (by id, 0 not counted; a repeated key
 * counts under its first id), plus `extra` states (one each), in the counters' order, then the extra
 * ones' new tallies in theirs. With `attemptsSince`, a tally in doubt with no answer comes as its two
 * parts (TallyOptions), its counted states' times from `splits` (a tally it has none of: every state
 * at a time not known). Each tally's state is decoded once. Pure.
 */
export function listTallies(keys: readonly string[], counts: readonly number[], extra: Iterable<ContactState>, options: TallyOptions = {}, splits?: AttemptSplits): StateTally[] {
  const since = options.attemptsSince;
  /** By key (and part: '' whole, 'b' before, 'a' at or after): its count and an attempt time of its part. */
  const byKey = new Map<string, { key: string; count: number; at: number }>();
  const add = (key: string, part: string, count: number, at: number) => {
    const name = part === '' ? key : `${key}\n${part}`;
    const found = byKey.get(name);
    if (found === undefined) byKey.set(name, { key, count, at });
    else {
      found.count += count;
      if (Number.isNaN(found.at)) found.at = at;
    }
  };
  const attemptIds = since === undefined ? undefined : new Set<number>();
  if (attemptIds) for (let id = 1; id < keys.length; id++) if (isAttemptTally(tallyState(keys[id] ?? '{}'))) attemptIds.add(id);
  // Every counter in order, an empty one too: a tally's place is its counter's, whatever adds to it.
  for (let id = 1; id < keys.length; id++) {
    const key = keys[id] ?? '';
    const count = counts[id] ?? 0;
    if (since === undefined || !attemptIds?.has(id)) {
      add(key, '', count, NaN);
      continue;
    }
    const split = splits?.of(id) ?? { before: 0, beforeAt: NaN, afterAt: NaN };
    add(key, 'b', split.before, split.beforeAt);
    add(key, 'a', count - split.before, split.afterAt);
  }
  for (const s of extra) {
    const key = tallyKey(s);
    if (since === undefined || !isAttemptTally(s)) add(key, '', 1, NaN);
    else {
      const at = attemptMs(s);
      add(key, at < since ? 'b' : 'a', 1, at);
    }
  }
  const out: StateTally[] = [];
  for (const { key, count, at } of byKey.values()) {
    if (count <= 0) continue;
    const state = tallyState(key);
    if (!Number.isNaN(at)) (state as { attemptAt?: string }).attemptAt = new Date(at).toISOString();
    out.push({ state, count });
  }
  return out;
}
