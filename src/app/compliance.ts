/**
 * What the account-protection rules read from the store, for one pass over a job's list: the
 * suppression list, the ledger (the messaging limit and the frequency cap) and the consent rule,
 * turned into PlanContext values; and the recipients a pass is about to message outside their
 * window, counted before the ledger has them (a decision and its request are apart in time, and
 * other contacts are decided meanwhile).
 */
import type { Ledger, LedgerEntry, LedgerView, StateStore, SuppressionList } from '../checkpoint/index.js';
import { isClearYes, type Contact } from '../contacts/index.js';
import type { Job } from '../job/index.js';
import { isWindowOpen, latestInbound, type Action, type Budget, type PlanContext } from '../plan/index.js';

const DAY_MS = 86_400_000;
/** The store is read again at most this often (wall time): a STOP is seen within this of arriving, and a list of a million costs no million reads. */
const REFRESH_EVERY_MS = 100;

export interface ComplianceLookups {
  job: Pick<Job, 'name' | 'limits' | 'require_opt_in' | 'window'>;
  suppressions: SuppressionList;
  ledger: Ledger;
  /** Recipients decided (outside their window) whose first message the ledger does not have yet. */
  reservations: Reservations;
  /** Reads what other processes changed since (a STOP, another job's sends). */
  refresh(): Promise<void>;
}

export async function complianceLookups(store: StateStore, job: ComplianceLookups['job']): Promise<ComplianceLookups> {
  const [suppressions, ledger] = await Promise.all([store.suppressions(), store.ledger()]);
  let readAt = performance.now();
  return {
    job,
    suppressions,
    ledger,
    reservations: new Reservations(),
    refresh: async () => {
      if (performance.now() - readAt < REFRESH_EVERY_MS) return;
      readAt = performance.now();
      await Promise.all([suppressions.refresh(), ledger.refresh()]);
    },
  };
}

/** The same lookups with no recipient reserved: one pass (the plan's) must not take the room of the next (the sends'). */
export function freshPass(lookups: ComplianceLookups): ComplianceLookups {
  return { ...lookups, reservations: new Reservations() };
}

/** The compliance part of a contact's PlanContext at `now`. */
export function complianceContext(c: ComplianceLookups, contact: Contact, now: number): Partial<PlanContext> {
  const entry = c.suppressions.get(contact.phone);
  const lastMessagedAt = c.job.limits.min_hours_between_messages !== undefined ? c.ledger.lastMessagedAt(contact.phone, { exceptJob: c.job.name }) : undefined;
  const limit = c.job.limits.daily_unique_recipients;
  return {
    ...(entry && { suppressed: { reason: entry.reason, source: entry.source } }),
    ...(c.job.require_opt_in && { optedIn: isClearYes(contact.optIn, now) }),
    ...(lastMessagedAt !== undefined && { lastMessagedAt }),
    ...(limit !== undefined && { budget: c.reservations.budget(c.ledger, contact.phone, now, limit) }),
  };
}

/** Whether a message to the contact now would go outside its 24-hour window (and so take room in the limit). */
export function outsideWindow(job: Pick<Job, 'window'>, contact: Contact, context: PlanContext): boolean {
  return !isWindowOpen(latestInbound(contact.lastInboundAt, context.lastInboundAt), context.now, job.window.safety_margin_minutes);
}

/** After a decision: a message about to go outside the window holds its room until the ledger has it. */
export function noteDecision(c: ComplianceLookups, contact: Contact, action: Action, context: PlanContext): void {
  if (action.kind !== 'template' && action.kind !== 'text') return;
  if (context.budget === undefined || context.budget.counted || !outsideWindow(c.job, contact, context)) return;
  c.reservations.reserve(contact.phone);
}

/** The ledger entry of a first message's request, as it leaves. */
export function ledgerEntry(job: string, phone: string, at: number, outside: boolean): LedgerEntry {
  return { phone, at, job, outsideWindow: outside };
}

export class Reservations {
  private readonly held = new Set<string>();

  get size(): number {
    return this.held.size;
  }

  reserve(phone: string): void {
    this.held.add(phone);
  }

  /** The ledger has the phone now, or nothing went: its room is no longer held here. */
  release(phone: string): void {
    this.held.delete(phone);
  }

  /** Room in the rolling 24 hours before `now`, counting the ledger and what is held here. */
  budget(ledger: LedgerView, phone: string, now: number, limit: number): Budget {
    const since = now - DAY_MS;
    const inLedger = (ledger.lastOutsideWindowAt(phone) ?? -Infinity) > since;
    const used = ledger.uniqueOutsideWindowSince(since);
    const total = used + this.held.size;
    const k = total - limit;
    const oldest = k >= 0 && k < used ? ledger.nthOutsideWindowSince(since, k) : undefined;
    return { room: limit - total, freesAt: (oldest ?? now) + DAY_MS, counted: inLedger || this.held.has(phone) };
  }
}
