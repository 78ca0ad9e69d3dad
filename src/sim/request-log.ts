import type { RequestLogEntry, SimCounters } from './types.js';

/** Largest count of sorted times inside any half-open window [s, s + windowMs). */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  let best = 0;
  let i = 0;
  for (let j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= windowMs) i++;
    if (j - i + 1 > best) best = j - i + 1;
  }
  return best;
}

/**
 * The simulator's record of API traffic: a capped array of small entries (optional), counters,
 * and the arrival times used for "never above N in any one-second window".
 */
export class RequestLog {
  readonly entries: RequestLogEntry[] = [];
  readonly counters: SimCounters = {
    total: 0,
    byEndpoint: {},
    byStatus: {},
    rateLimited: 0,
    dropped: 0,
    messagesOutbound: 0,
    messagesInbound: 0,
    webhookAttempts: 0,
  };
  /** Wall ms of every API request, and of those not refused by the rate limit. */
  private readonly arrivals: number[] = [];
  private readonly accepted: number[] = [];
  private readonly perSecond = new Map<number, number>();
  private readonly startWhatsappByPhone = new Map<string, number>();

  constructor(
    private readonly enabled: boolean,
    private readonly limit: number,
  ) {}

  /** Counts an arriving API request (before any decision). */
  arrive(wall: number, endpoint: string): void {
    const c = this.counters;
    c.total++;
    c.byEndpoint[endpoint] = (c.byEndpoint[endpoint] ?? 0) + 1;
    this.arrivals.push(wall);
    const second = Math.floor(wall / 1000);
    this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + 1);
  }

  acceptedByLimiter(wall: number): void {
    this.accepted.push(wall);
  }

  countStartWhatsapp(phone: string): void {
    this.startWhatsappByPhone.set(phone, (this.startWhatsappByPhone.get(phone) ?? 0) + 1);
  }

  startWhatsappCount(phone: string): number {
    return this.startWhatsappByPhone.get(phone) ?? 0;
  }

  /** Records the outcome of an API request. */
  finish(entry: RequestLogEntry): void {
    const c = this.counters;
    const key = String(entry.status);
    c.byStatus[key] = (c.byStatus[key] ?? 0) + 1;
    if (entry.status === 429) c.rateLimited++;
    if (entry.dropped) c.dropped++;
    if (!this.enabled) return;
    if (this.entries.length >= this.limit) this.entries.splice(0, Math.ceil(this.limit / 2));
    this.entries.push(entry);
  }

  maxRequestsInWindow(windowMs = 1000, options: { acceptedOnly?: boolean } = {}): number {
    return maxInWindow(options.acceptedOnly ? this.accepted : this.arrivals, windowMs);
  }

  requestsPerSecond(): Map<number, number> {
    return new Map(this.perSecond);
  }
}
