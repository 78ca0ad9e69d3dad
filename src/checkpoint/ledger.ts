/**
 * The ledger: every first message any job of the state folder sent (or may have sent), with its
 * time, its job, and whether it went outside the recipient's 24-hour window. It answers the two
 * questions the account's limits ask: how many distinct recipients were messaged outside their
 * window in the last 24 hours (the provider's messaging limit), and when a phone last got a first
 * message from another job (the frequency cap). `LedgerIndex` is the fold every backend shares;
 * folding one entry twice changes nothing, so a backend may read its own writes back.
 */

/** One first message. */
export interface LedgerEntry {
  phone: string;
  /** Epoch ms. */
  at: number;
  job: string;
  /** Sent outside the recipient's 24-hour window (a business-initiated conversation: it counts against the limit). */
  outsideWindow: boolean;
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
}

export interface Ledger extends LedgerView {
  /** Counts at once; resolves once the entry is durable. */
  record(entry: LedgerEntry): Promise<void>;
  /** Reads what other processes recorded since; cheap when there is nothing new. */
  refresh(): Promise<void>;
}

export class LedgerIndex implements LedgerView {
  /** Per phone, the latest first message of each job. */
  private readonly byPhone = new Map<string, Array<{ job: string; at: number }>>();
  private readonly lastOutside = new Map<string, number>();
  /** Each phone's latest outside-window time, ascending (one value per phone in `lastOutside`). */
  private readonly outsideTimes: number[] = [];

  clear(): void {
    this.byPhone.clear();
    this.lastOutside.clear();
    this.outsideTimes.length = 0;
  }

  add(entry: LedgerEntry): void {
    if (!Number.isFinite(entry.at)) return;
    const jobs = this.byPhone.get(entry.phone);
    if (jobs === undefined) this.byPhone.set(entry.phone, [{ job: entry.job, at: entry.at }]);
    else {
      const same = jobs.find((j) => j.job === entry.job);
      if (same === undefined) jobs.push({ job: entry.job, at: entry.at });
      else if (entry.at > same.at) same.at = entry.at;
    }
    if (!entry.outsideWindow) return;
    const before = this.lastOutside.get(entry.phone);
    if (before !== undefined && before >= entry.at) return;
    if (before !== undefined) this.outsideTimes.splice(lowerBound(this.outsideTimes, before), 1);
    this.lastOutside.set(entry.phone, entry.at);
    this.outsideTimes.splice(upperBound(this.outsideTimes, entry.at), 0, entry.at);
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
    for (const j of this.byPhone.get(phone) ?? []) {
      if (j.job === options.exceptJob) continue;
      if (last === undefined || j.at > last) last = j.at;
    }
    return last;
  }
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

/** A stored entry read back, or undefined when it is not one. */
export function readLedgerEntry(value: Record<string, unknown>): LedgerEntry | undefined {
  const { phone, at, job, outside_window: outside } = value;
  if (typeof phone !== 'string' || typeof at !== 'string' || typeof job !== 'string' || typeof outside !== 'boolean') return undefined;
  const ms = Date.parse(at);
  return Number.isNaN(ms) ? undefined : { phone, at: ms, job, outsideWindow: outside };
}

/** An entry as stored (snake_case, ISO time, so a person can read it). */
export function ledgerRecord(entry: LedgerEntry): Record<string, unknown> {
  return { v: 1, phone: entry.phone, at: new Date(entry.at).toISOString(), job: entry.job, outside_window: entry.outsideWindow };
}
