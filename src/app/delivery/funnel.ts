import type { ContactState } from '../../checkpoint/index.js';
import { providerClass, providerClassInfo, type ProviderClass } from '../../run/provider-classes.js';

/** Delivery failures of one reason: the provider's code (null when the failure carried none) and its class. */
export interface FunnelFailure {
  code: number | null;
  class: ProviderClass;
  /** For people: what the class means, e.g. "the number cannot receive WhatsApp messages". */
  label: string;
  count: number;
  /** One failure reason as the platform wrote it. */
  example: string;
}

/** After "accepted": of the sent contacts, how many got the message, read it and replied, and why the others failed. */
export interface Funnel {
  sent: number;
  /** Sent contacts whose message `track` has read at least once. */
  tracked: number;
  /** Delivered or read. */
  delivered: number;
  read: number;
  /** Sent contacts who wrote back after the message. */
  replied: number;
  /** Messages the provider accepted but could not deliver. */
  failed: number;
  /** The delivery failures by reason, most first. */
  failures: FunnelFailure[];
}

/** The funnel of a job's states, with each phone's reply time. Pure. */
export function funnelOf(states: Iterable<ContactState>, replies: ReadonlyMap<string, string>): Funnel {
  const counter = funnelCounter(replies);
  for (const s of states) counter.add(s);
  return counter.result();
}

/** What `funnelOf` counts, one state at a time. */
export function funnelCounter(replies: ReadonlyMap<string, string>): { add(s: ContactState, n?: number): void; result(): Funnel } {
  const funnel: Funnel = { sent: 0, tracked: 0, delivered: 0, read: 0, replied: 0, failed: 0, failures: [] };
  const byCode = new Map<string, FunnelFailure>();
  return {
    /** `n` states like `s` (a tally's count). */
    add(s, n = 1) {
      if (s.status !== 'sent') return;
      funnel.sent += n;
      if (replies.has(s.phone)) funnel.replied += n;
      const d = s.delivery;
      if (!d) return;
      funnel.tracked += n;
      if (d.status === 'delivered' || d.status === 'read') funnel.delivered += n;
      if (d.status === 'read') funnel.read += n;
      if (d.status !== 'failed') return;
      funnel.failed += n;
      const code = d.failureCode ?? null;
      const key = String(code);
      const known = byCode.get(key);
      if (known) known.count += n;
      else {
        const c = providerClass(code ?? undefined);
        byCode.set(key, { code, class: c, label: providerClassInfo(c).label, count: n, example: d.failureReason ?? '' });
      }
    },
    result() {
      funnel.failures = [...byCode.values()].sort((a, b) => b.count - a.count || (a.code ?? 0) - (b.code ?? 0));
      return funnel;
    },
  };
}

/** A share of the sent, as `12.5%` (0% of none). */
export function ofSent(count: number, sent: number): string {
  return `${(sent > 0 ? (count / sent) * 100 : 0).toFixed(1)}%`;
}
