/**
 * The ledger: every first message any job of the state folder sent (or may have sent), with its
 * time, its job, and whether it went outside the recipient's 24-hour window. It answers the two
 * questions the account's limits ask: how many distinct recipients were messaged outside their
 * window in the last 24 hours (the provider's messaging limit), and when a phone last got a first
 * message from another job (the frequency cap). An entry is written before its request leaves (a
 * crash over-counts, never under-counts) and taken back when the provider's answer says it did not
 * accept the message: the limit counts what the provider counts. `LedgerIndex` is the fold every
 * backend shares; folding one entry or take-back twice changes nothing, in any order, so a backend
 * may read its own writes back.
 */

/** One first message. */
export interface LedgerEntry {
  phone: string;
  /** Epoch ms. */
  at: number;
  job: string;
  /** Sent outside the recipient's 24-hour window (a business-initiated conversation: it counts against the limit). */
  outsideWindow: boolean;
  /** The number of a pool it went from (absent for a job of one number). */
  channelId?: number;
  /**
   * Tells this entry apart from any other (a retry of the same job and phone may come in the same
   * millisecond); a take-back names it. Without one, the job, phone and time name the entry.
   */
  id?: string;
  /** The filled message's key (`messageKey`): the same message from another job is not sent again. Absent in entries written before it was kept. */
  message?: string;
  /** The company whose ledger it is in; absent in entries written before companies were kept (they count for every company). Set by the store. */
  company?: number;
  /** The id of the job's state that sent it (its header's `state`); absent in entries written before it was kept. */
  state?: string;
}

/** A first message of the phone still counted: its job and time. */
export interface LedgerMessage {
  job: string;
  /** Epoch ms. */
  at: number;
}

/** A first message of the phone still counted, with the key of what it carried and the job's state that sent it, when the entry says. */
export interface SentMessage extends LedgerMessage {
  message?: string;
  state?: string;
}

export interface LedgerView {
  /** Distinct phones whose latest outside-window first message is later than `since` (epoch ms). */
  uniqueOutsideWindowSince(since: number): number;
  /**
   * Of those phones, ordered by that latest time, the time of the `n`-th (0-based): the `n`-th to
   * leave the rolling window. Undefined when there are not that many.
   */
  nthOutsideWindowSince(since: number, n: number): number | undefined;
  /** The phone's latest outside-window first message (epoch ms). */
  lastOutsideWindowAt(phone: string): number | undefined;
  /** The phone's latest first message from any job (but `exceptJob`), epoch ms. */
  lastMessagedAt(phone: string, options?: { exceptJob?: string }): number | undefined;
  /** The phone's latest first message from each job (but `exceptJob`) later than `since` (epoch ms). */
  messagesSince(phone: string, since: number, options?: { exceptJob?: string }): LedgerMessage[];
  /** The number of a pool the phone's latest first message that names one went from (any job). */
  lastChannelOf(phone: string): number | undefined;
  /** Every first message of the phone still counted (any job), oldest first, with its message's key when known. */
  sentTo(phone: string): readonly SentMessage[];
}

/**
 * The ledger read for the rolling window after `since` only (status's messaging room): the two counts
 * are the whole ledger's for any time at or after `since`; earlier times are not read.
 */
export interface RecentLedger extends Pick<LedgerView, 'uniqueOutsideWindowSince' | 'nthOutsideWindowSince'> {
  /** Epoch ms: the counts hold for times at or after it. */
  readonly since: number;
}

/**
 * Places in the store's messaging limit held by one process: taken atomically for the whole store
 * (every process of every host together never holds more than the limit leaves), used one by one as
 * the process's first messages outside the window reach the ledger, given back at the end. Places a
 * process holds and does not use (it died) lapse as a job's lease does (30 seconds by default) after its
 * last take, renewal or use; those of a process of this host that is gone, at once.
 */
export interface BudgetHolder {
  /** Places taken and not yet used. */
  readonly held: number;
  /**
   * Takes up to `want` more places under `limit` in the rolling 24 hours before `now` (epoch ms),
   * counting the ledger's distinct recipients messaged outside their window since then and every
   * holder's unused places; resolves with how many were granted (0: no room left).
   */
  take(want: number, limit: number, now: number): Promise<number>;
  /**
   * Keeps the places held without taking more (a run that sends nothing for a while is alive): places of a
   * holder that shows no sign of life lapse as a job's lease does. `now` as for `take`.
   */
  renew(now: number): Promise<void>;
  /** Gives the unused places back. Safe to call twice. */
  release(): Promise<void>;
}

export interface Ledger extends LedgerView {
  /**
   * Counts at once; resolves once the entry is durable. With `from`, an entry outside the window uses
   * one of that holder's places in the same write (the room moves from the hold to the ledger).
   */
  record(entry: LedgerEntry, from?: BudgetHolder): Promise<void>;
  /**
   * Takes back an entry recorded earlier: the provider did not accept its message (refused, failed
   * for good), so it counts for neither the messaging limit nor the frequency cap. Counts at once;
   * resolves once the take-back is durable. A send in doubt is never taken back: it may have gone.
   */
  takeBack(entry: LedgerEntry): Promise<void>;
  /** Reads what other processes recorded since; cheap when there is nothing new. */
  refresh(): Promise<void>;
}

interface Counted {
  id: string | undefined;
  job: string;
  at: number;
  outside: boolean;
  channel?: number;
  message?: string;
  state?: string;
}

/** The name of an entry: its id, else its job, phone and time. */
function keyOf(entry: Pick<LedgerEntry, 'phone' | 'at' | 'job' | 'id'>): string {
  return entry.id ?? `${entry.job}\u0000${entry.phone}\u0000${entry.at}`;
}

/** Whether a counted entry is the one named. */
function isEntry(e: Counted, entry: Pick<LedgerEntry, 'at' | 'job' | 'id'>): boolean {
  return entry.id !== undefined ? e.id === entry.id : e.id === undefined && e.job === entry.job && e.at === entry.at;
}

export class LedgerIndex implements LedgerView {
  /** Per phone, its entries not taken back. */
  private readonly byPhone = new Map<string, Counted[]>();
  /** Entries taken back: an entry read after its take-back (a backend reading its own lines) stays out. */
  private readonly takenBack = new Set<string>();
  private readonly lastOutside = new Map<string, number>();
  /** Each phone's latest outside-window time, ascending (one value per phone in `lastOutside`). */
  private readonly outsideTimes: number[] = [];

  clear(): void {
    this.byPhone.clear();
    this.takenBack.clear();
    this.lastOutside.clear();
    this.outsideTimes.length = 0;
  }

  add(entry: LedgerEntry): void {
    if (!Number.isFinite(entry.at)) return;
    if (this.takenBack.size > 0 && this.takenBack.has(keyOf(entry))) return;
    const entries = this.byPhone.get(entry.phone);
    // Fields set one by one (no spread): a status folds ten thousand entries once, in code not yet compiled.
    const counted: Counted = { id: entry.id, job: entry.job, at: entry.at, outside: entry.outsideWindow };
    if (entry.channelId !== undefined) counted.channel = entry.channelId;
    if (entry.message !== undefined) counted.message = entry.message;
    if (entry.state !== undefined) counted.state = entry.state;
    if (entries === undefined) this.byPhone.set(entry.phone, [counted]);
    else if (entries.some((e) => isEntry(e, entry))) return;
    else entries.push(counted);
    if (entry.outsideWindow) this.placeOutside(entry.phone, Math.max(entry.at, this.lastOutside.get(entry.phone) ?? -Infinity));
  }

  takeBack(entry: Pick<LedgerEntry, 'phone' | 'at' | 'job' | 'id'>): void {
    this.takenBack.add(keyOf(entry));
    const entries = this.byPhone.get(entry.phone);
    const at = entries?.findIndex((e) => isEntry(e, entry)) ?? -1;
    if (entries === undefined || at === -1) return;
    entries.splice(at, 1);
    if (entries.length === 0) this.byPhone.delete(entry.phone);
    let latest: number | undefined;
    for (const e of entries) if (e.outside && (latest === undefined || e.at > latest)) latest = e.at;
    this.placeOutside(entry.phone, latest);
  }

  uniqueOutsideWindowSince(since: number): number {
    return this.outsideTimes.length - upperBound(this.outsideTimes, since);
  }

  nthOutsideWindowSince(since: number, n: number): number | undefined {
    if (n < 0) return undefined;
    return this.outsideTimes[upperBound(this.outsideTimes, since) + n];
  }

  lastOutsideWindowAt(phone: string): number | undefined {
    return this.lastOutside.get(phone);
  }

  lastMessagedAt(phone: string, options: { exceptJob?: string } = {}): number | undefined {
    let last: number | undefined;
    for (const e of this.byPhone.get(phone) ?? []) {
      if (e.job === options.exceptJob) continue;
      if (last === undefined || e.at > last) last = e.at;
    }
    return last;
  }

  lastChannelOf(phone: string): number | undefined {
    let last: { at: number; channel: number } | undefined;
    for (const e of this.byPhone.get(phone) ?? []) if (e.channel !== undefined && (last === undefined || e.at >= last.at)) last = { at: e.at, channel: e.channel };
    return last?.channel;
  }

  sentTo(phone: string): readonly SentMessage[] {
    const entries = this.byPhone.get(phone);
    if (entries === undefined) return [];
    return entries.map((e) => ({ job: e.job, at: e.at, ...(e.message !== undefined && { message: e.message }), ...(e.state !== undefined && { state: e.state }) })).sort((a, b) => a.at - b.at);
  }

  messagesSince(phone: string, since: number, options: { exceptJob?: string } = {}): LedgerMessage[] {
    const latest = new Map<string, number>();
    for (const e of this.byPhone.get(phone) ?? []) {
      if (e.job === options.exceptJob || e.at <= since) continue;
      if (e.at > (latest.get(e.job) ?? -Infinity)) latest.set(e.job, e.at);
    }
    return [...latest].map(([job, at]) => ({ job, at }));
  }

  /** Moves the phone's latest outside-window time to `at` (none: the phone no longer counts). */
  private placeOutside(phone: string, at: number | undefined): void {
    const before = this.lastOutside.get(phone);
    if (before === at) return;
    if (before !== undefined) this.outsideTimes.splice(lowerBound(this.outsideTimes, before), 1);
    if (at === undefined) {
      this.lastOutside.delete(phone);
      return;
    }
    this.lastOutside.set(phone, at);
    // Most times come in order: the latest is added at the end.
    const times = this.outsideTimes;
    if (times.length === 0 || (times[times.length - 1] ?? Infinity) <= at) times.push(at);
    else times.splice(upperBound(times, at), 0, at);
  }
}

/**
 * The same fold as LedgerIndex for the two counts of the rolling window only (status's messaging
 * room, RecentLedger): each entry kept as its name, time and window (no copy of its other fields, no
 * list for a phone of one entry), and each phone's latest time outside the window found once, when
 * first counted. Entries and take-backs are matched as LedgerIndex matches them, so the counts are
 * its counts (a test folds the same lines into both).
 */
export class WindowIndex implements Pick<LedgerView, 'uniqueOutsideWindowSince' | 'nthOutsideWindowSince'> {
  private readonly byPhone = new Map<string, Counted | Counted[]>();
  private readonly takenBack = new Set<string>();
  /** Each phone's latest outside-window time, ascending; undefined until counted (then kept until the next add or take-back). */
  private times: number[] | undefined;

  add(entry: LedgerEntry): void {
    if (!Number.isFinite(entry.at)) return;
    if (this.takenBack.size > 0 && this.takenBack.has(keyOf(entry))) return;
    this.times = undefined;
    const counted: Counted = { id: entry.id, job: entry.job, at: entry.at, outside: entry.outsideWindow };
    const had = this.byPhone.get(entry.phone);
    if (had === undefined) this.byPhone.set(entry.phone, counted);
    else if (!Array.isArray(had)) {
      if (!isEntry(had, entry)) this.byPhone.set(entry.phone, [had, counted]);
    } else if (!had.some((e) => isEntry(e, entry))) had.push(counted);
  }

  takeBack(entry: Pick<LedgerEntry, 'phone' | 'at' | 'job' | 'id'>): void {
    this.takenBack.add(keyOf(entry));
    this.times = undefined;
    const had = this.byPhone.get(entry.phone);
    if (had === undefined) return;
    if (!Array.isArray(had)) {
      if (isEntry(had, entry)) this.byPhone.delete(entry.phone);
      return;
    }
    const at = had.findIndex((e) => isEntry(e, entry));
    if (at === -1) return;
    had.splice(at, 1);
    if (had.length === 0) this.byPhone.delete(entry.phone);
  }

  uniqueOutsideWindowSince(since: number): number {
    const times = this.counted();
    return times.length - upperBound(times, since);
  }

  nthOutsideWindowSince(since: number, n: number): number | undefined {
    if (n < 0) return undefined;
    const times = this.counted();
    return times[upperBound(times, since) + n];
  }

  private counted(): number[] {
    if (this.times) return this.times;
    const times: number[] = [];
    for (const had of this.byPhone.values()) {
      if (!Array.isArray(had)) {
        if (had.outside) times.push(had.at);
        continue;
      }
      let latest: number | undefined;
      for (const e of had) if (e.outside && (latest === undefined || e.at > latest)) latest = e.at;
      if (latest !== undefined) times.push(latest);
    }
    this.times = times.sort((a, b) => a - b);
    return this.times;
  }
}

/** The view a backend's ledger gives of its index (the questions every backend answers the same way). */
export function ledgerViewOf(index: LedgerIndex): LedgerView {
  return {
    uniqueOutsideWindowSince: (since) => index.uniqueOutsideWindowSince(since),
    nthOutsideWindowSince: (since, n) => index.nthOutsideWindowSince(since, n),
    lastOutsideWindowAt: (phone) => index.lastOutsideWindowAt(phone),
    lastMessagedAt: (phone, options) => index.lastMessagedAt(phone, options),
    messagesSince: (phone, since, options) => index.messagesSince(phone, since, options),
    lastChannelOf: (phone) => index.lastChannelOf(phone),
    sentTo: (phone) => index.sentTo(phone),
  };
}

/** First index whose value is >= x. */
function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? Infinity) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose value is > x. */
function upperBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? Infinity) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A stored line read back: an entry, a take-back, or undefined when it is neither. */
export function readLedgerLine(value: Record<string, unknown>): { op: 'add' | 'take_back'; entry: LedgerEntry } | undefined {
  const { phone, at, job, outside_window: outside, id, op, channel_id: channel, message, company, state } = value;
  if (typeof phone !== 'string' || typeof at !== 'string' || typeof job !== 'string') return undefined;
  if (id !== undefined && typeof id !== 'string') return undefined;
  const ms = Date.parse(at);
  if (Number.isNaN(ms)) return undefined;
  if (op !== 'take_back' && (op !== undefined || typeof outside !== 'boolean')) return undefined;
  // Fields set one by one (no spread): a status reads ten thousand lines once, in code not yet compiled.
  const entry: LedgerEntry = { phone, at: ms, job, outsideWindow: outside === true };
  if (id !== undefined) entry.id = id;
  if (op !== 'take_back') {
    if (typeof channel === 'number') entry.channelId = channel;
    if (typeof message === 'string') entry.message = message;
    if (typeof state === 'string') entry.state = state;
  }
  if (typeof company === 'number' && Number.isInteger(company)) entry.company = company;
  return { op: op === 'take_back' ? 'take_back' : 'add', entry };
}

/** Whether a stored entry counts in the ledger of `company` (undefined: the store seen whole, every entry): its own, or one of no company. */
export function inCompany(entry: { company?: number }, company: number | undefined): boolean {
  return company === undefined || entry.company === undefined || entry.company === company;
}

/** An entry as stored (snake_case, ISO time, so a person can read it). */
export function ledgerRecord(entry: LedgerEntry): Record<string, unknown> {
  return {
    v: 1,
    phone: entry.phone,
    at: new Date(entry.at).toISOString(),
    job: entry.job,
    outside_window: entry.outsideWindow,
    ...(entry.id !== undefined && { id: entry.id }),
    ...(entry.channelId !== undefined && { channel_id: entry.channelId }),
    ...(entry.message !== undefined && { message: entry.message }),
    ...(entry.state !== undefined && { state: entry.state }),
    ...(entry.company !== undefined && { company: entry.company }),
  };
}

/** A take-back as stored: it names the entry by its id (and its phone, job and time, for people). */
export function takeBackRecord(entry: LedgerEntry): Record<string, unknown> {
  return { v: 1, op: 'take_back', phone: entry.phone, at: new Date(entry.at).toISOString(), job: entry.job, ...(entry.id !== undefined && { id: entry.id }), ...(entry.company !== undefined && { company: entry.company }) };
}
