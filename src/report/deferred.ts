import type { ContactState } from '../checkpoint/types.js';

/** The deferred contacts of one reason: how many, and when the first of them may go. */
export interface DeferredGroup {
  reason: string;
  count: number;
  /** The earliest not_before of the group (ISO). */
  notBefore: string;
  /** quiet_hours: the zone of the contact who may go first. */
  zone?: string;
}

/** Deferred contacts by reason, the largest group first. Pure. */
export function deferredGroups(states: Iterable<ContactState>): DeferredGroup[] {
  const counter = deferredCounter();
  for (const s of states) counter.add(s);
  return counter.result();
}

/** What `deferredGroups` counts, one state at a time. */
export function deferredCounter(): { add(s: ContactState, n?: number): void; result(): DeferredGroup[] } {
  const groups = new Map<string, DeferredGroup>();
  return {
    add(s, n = 1) {
      if (s.status !== 'deferred') return;
      const group = groups.get(s.reason);
      if (group === undefined) {
        groups.set(s.reason, { reason: s.reason, count: n, notBefore: s.notBefore, ...(s.zone !== undefined && { zone: s.zone }) });
        return;
      }
      group.count += n;
      if (Date.parse(s.notBefore) < Date.parse(group.notBefore)) {
        group.notBefore = s.notBefore;
        if (s.zone !== undefined) group.zone = s.zone;
        else delete group.zone;
      }
    },
    result: () => [...groups.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
  };
}

/** The earliest time any deferred contact may go (epoch ms), or undefined when none is deferred. */
export function firstNotBefore(groups: readonly DeferredGroup[]): number | undefined {
  const times = groups.map((g) => Date.parse(g.notBefore)).filter((t) => !Number.isNaN(t));
  return times.length > 0 ? Math.min(...times) : undefined;
}
