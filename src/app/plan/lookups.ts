import type { StateStore, WindowLookup } from '../../checkpoint/index.js';
import type { Contact } from '../../contacts/index.js';
import { numberZone } from '../../contacts/index.js';
import type { Job } from '../../job/index.js';
import { zoneRules, type PlanContext } from '../../plan/index.js';
import { complianceContext, complianceLookups, type ComplianceLookups, type OwnState } from '../protection/index.js';
import { experimentFacts, type ExperimentLookup } from '../experiment/index.js';

/** What the store knows that the planner reads, gathered once per pass (or refreshed during a run). */
export interface PlanLookups {
  windows: WindowLookup;
  /** The suppression list, the ledger and the consent rule; without it those rules see nothing. */
  compliance?: ComplianceLookups;
  /** An experiment's decision and when it is due; without it an experiment's contacts all count as its test. */
  experiment?: ExperimentLookup;
  /** The job places each contact in its own zone (send_window "recipient", or its default_timezone): the context carries the zone of each number. */
  ownZones?: true;
}

/** The store's lookups for one job, read now; `refreshEveryMs` as in `complianceLookups`. */
export async function planLookups(
  store: StateStore,
  job: ComplianceLookups['job'] & Partial<Pick<Job, 'send_window' | 'default_timezone'>>,
  refreshEveryMs?: number,
  own?: OwnState,
): Promise<PlanLookups> {
  const [windows, compliance] = await Promise.all([store.windows(), complianceLookups(store, job, refreshEveryMs, own)]);
  return { windows, compliance, ...(zoneRules(job)?.timezone === 'recipient' && { ownZones: true as const }) };
}

/**
 * The planner's context for one contact at `now`, from the store's lookups. `pool`: the job sends from several
 * numbers and the contact goes from `from` (undefined when none is left): only a window on that number counts.
 */
export function planContextFor(lookups: PlanLookups, contact: Contact, now: number, pool?: { from: number | undefined }): PlanContext {
  const lastInboundAt = pool === undefined ? lookups.windows.lastInboundAt(contact.phone) : inboundOnNumber(lookups.windows, contact.phone, pool.from);
  const zone = lookups.ownZones ? numberZone(contact.phone) : undefined;
  return {
    now,
    ...(lastInboundAt !== undefined && { lastInboundAt }),
    ...(zone !== undefined && { numberZone: zone }),
    ...(pool !== undefined && { windowOfNumber: true as const }),
    ...(lookups.compliance && complianceContext(lookups.compliance, contact, now)),
    ...(lookups.experiment && { experiment: experimentFacts(lookups.experiment, contact.phone) }),
  };
}

/** The phone's last inbound time when it came to number `from`; undefined when it came to another number or one not known. */
function inboundOnNumber(windows: WindowLookup, phone: string, from: number | undefined): number | undefined {
  const channel = windows.lastInboundChannel(phone);
  return from !== undefined && channel === from ? windows.lastInboundAt(phone) : undefined;
}

/**
 * A pool's number of a phone before any send: the number the store last sent it a first message from (the
 * send ledger), else the number its open window is on (the one it wrote to), when either is known.
 */
export function rememberedNumber(lookups: PlanLookups, ledger: ((phone: string) => number | undefined) | undefined): (phone: string) => number | undefined {
  return (phone) => ledger?.(phone) ?? lookups.windows.lastInboundChannel(phone);
}
