import type { StateStore, WindowLookup } from '../checkpoint/index.js';
import type { Contact } from '../contacts/index.js';
import type { PlanContext } from '../plan/index.js';
import { complianceContext, complianceLookups, type ComplianceLookups } from './compliance.js';
import { experimentFacts, type ExperimentLookup } from './experiment.js';

/** What the store knows that the planner reads, gathered once per pass (or refreshed during a run). */
export interface PlanLookups {
  windows: WindowLookup;
  /** The suppression list, the ledger and the consent rule; without it those rules see nothing. */
  compliance?: ComplianceLookups;
  /** An experiment's decision and when it is due; without it an experiment's contacts all count as its test. */
  experiment?: ExperimentLookup;
}

/** The store's lookups for one job, read now; `refreshEveryMs` as in `complianceLookups`. */
export async function planLookups(store: StateStore, job: ComplianceLookups['job'], refreshEveryMs?: number): Promise<PlanLookups> {
  const [windows, compliance] = await Promise.all([store.windows(), complianceLookups(store, job, refreshEveryMs)]);
  return { windows, compliance };
}

/** The planner's context for one contact at `now`, from the store's lookups. */
export function planContextFor(lookups: PlanLookups, contact: Contact, now: number): PlanContext {
  const lastInboundAt = lookups.windows.lastInboundAt(contact.phone);
  return {
    now,
    ...(lastInboundAt !== undefined && { lastInboundAt }),
    ...(lookups.compliance && complianceContext(lookups.compliance, contact, now)),
    ...(lookups.experiment && { experiment: experimentFacts(lookups.experiment, contact.phone) }),
  };
}
