import type { WindowLookup } from '../checkpoint/index.js';
import type { Contact } from '../contacts/index.js';
import type { PlanContext } from '../plan/index.js';

/** What the store knows that the planner reads, gathered once per pass (or refreshed during a run). */
export interface PlanLookups {
  windows: WindowLookup;
}

/** The planner's context for one contact at `now`, from the store's lookups. */
export function planContextFor(lookups: PlanLookups, contact: Contact, now: number): PlanContext {
  const lastInboundAt = lookups.windows.lastInboundAt(contact.phone);
  return { now, ...(lastInboundAt !== undefined && { lastInboundAt }) };
}
