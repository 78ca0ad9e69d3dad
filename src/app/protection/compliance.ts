/**
 * What the account-protection rules read from the store, for one pass over a job's list: the
 * suppression list, the ledger (the messaging limit and the frequency cap) and the consent rule,
 * turned into PlanContext values; and the recipients a pass is about to message outside their
 * window, counted before the ledger has them (a decision and its request are apart in time, and
 * other contacts are decided meanwhile).
 */
import type { BudgetHolder, Ledger, LedgerView, StateStore, SuppressionList } from '../../checkpoint/index.js';
import type { Contact } from '../../contacts/index.js';
import { isClearYes } from '../../contacts/opt-in.js'; // the opt-in cell's reading alone, not the loader
import type { Job } from '../../job/index.js';
import { contactInbound, isWindowOpen, type Action, type Budget, type PlanContext } from '../../plan/index.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** The store is read again at most this often (wall time): a STOP is seen within this of arriving, and a list of a million costs no million reads. */
export const REFRESH_EVERY_MS = 100;

export interface ComplianceLookups {
  job: Pick<Job, 'name' | 'limits' | 'require_opt_in' | 'window'>;
  /**
   * The job's own state in this store: whether it has one, and its id (its header's `state`). A first message
   * of this job's name sent from another state (the job's state started again, a copy taken in from another
   * folder) counts as another job's for `already_sent`; one of this state's own never does. Without it, none
   * of this job's name counts.
   */
  own?: OwnState;
  suppressions: SuppressionList;
  ledger: Ledger;
  /** Recipients decided (outside their window) whose first message the ledger does not have yet. */
  reservations: Reservations;
  /**
   * The run's places in the store's messaging limit (run/budget-places.ts): with one, a contact outside
   * its window goes only on a place held and not yet promised. Without one (plan), the ledger alone.
   */
  holder?: BudgetHolder;
  /** Reads what other processes changed since (a STOP, another job's sends). */
  refresh(): Promise<void>;
}

/** `refreshEveryMs`: how often at most `refresh` reads the store again (0: every time it is called). */
export async function complianceLookups(store: StateStore, job: ComplianceLookups['job'], refreshEveryMs = REFRESH_EVERY_MS, own?: OwnState): Promise<ComplianceLookups> {
  const [suppressions, ledger] = await Promise.all([store.suppressions(), store.ledger()]);
  let readAt = performance.now();
  return {
    job,
    ...(own && { own }),
    suppressions,
    ledger,
    reservations: new Reservations(),
    refresh: async () => {
      if (performance.now() - readAt < refreshEveryMs) return;
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
  const lastMessagedAt = c.job.limits.min_hours_between_messages > 0 ? c.ledger.lastMessagedAt(contact.phone, { exceptJob: c.job.name }) : undefined;
  const limit = c.job.limits.daily_unique_recipients;
  const sentBefore = c.job.limits.repeat_message ? [] : sentByOthers(c, contact.phone);
  return {
    ...(sentBefore.length > 0 && { sentBefore }),
    ...(entry && { suppressed: { reason: entry.reason, source: entry.source } }),
    ...(c.job.require_opt_in && { optedIn: isClearYes(contact.optIn, now) }),
    ...(lastMessagedAt !== undefined && { lastMessagedAt }),
    ...(limit !== undefined && { budget: c.reservations.budget(c.ledger, contact.phone, now, limit, c.holder?.held) }),
  };
}

/** The job's own state, as `ComplianceLookups.own` reads it. */
export interface OwnState {
  /** The job has a state in this store (a header). */
  exists: boolean;
  /** Its id, when its header has one. */
  state?: string;
}

/** The first messages the ledger knows the message of, sent to the phone by another job (or by another state of this one). */
function sentByOthers(c: ComplianceLookups, phone: string): Array<{ job: string; at: number; message: string }> {
  const sent = c.ledger.sentTo(phone);
  if (sent.length === 0) return [];
  const out: Array<{ job: string; at: number; message: string }> = [];
  for (const m of sent) if (m.message !== undefined && (m.job !== c.job.name || fromAnotherState(m.state, c.own))) out.push({ job: m.job, at: m.at, message: m.message });
  return out;
}

/**
 * Whether a first message of this job's name came from another state of it: any, when this job has no state
 * here (it was started again, or taken in beside another one); one that names another state id, when it has.
 */
function fromAnotherState(state: string | undefined, own: OwnState | undefined): boolean {
  if (own === undefined) return false;
  if (!own.exists) return true;
  return state !== undefined && own.state !== undefined && state !== own.state;
}

/** Whether a message to the contact now would go outside its 24-hour window (and so take room in the limit). */
export function outsideWindow(job: Pick<Job, 'window'>, contact: Contact, context: PlanContext): boolean {
  return !isWindowOpen(contactInbound(contact, context), context.now, job.window.safety_margin_minutes);
}

/**
 * After a decision: a message about to go outside the window holds its room until the ledger has it;
 * a contact deferred for the limit takes the next place in the queue (the one after it waits longer).
 */
export function noteDecision(c: ComplianceLookups, contact: Contact, action: Action, context: PlanContext): void {
  if (action.kind === 'defer' && action.reason === 'daily_limit') c.reservations.queue();
  if (action.kind !== 'template' && action.kind !== 'text') return;
  if (context.budget === undefined || context.budget.counted || !outsideWindow(c.job, contact, context)) return;
  c.reservations.reserve(contact.phone);
}

export class Reservations {
  private readonly held = new Set<string>();
  /** Contacts of this pass deferred for the limit, in order: each waits for a later place. */
  private queued = 0;

  get size(): number {
    return this.held.size;
  }

  has(phone: string): boolean {
    return this.held.has(phone);
  }

  reserve(phone: string): void {
    this.held.add(phone);
  }

  queue(): void {
    this.queued += 1;
  }

  /** The ledger has the phone now, or nothing went: its room is no longer held here. */
  release(phone: string): void {
    this.held.delete(phone);
  }

  /**
   * Room in the rolling 24 hours before `now`, counting the ledger and what is held here. With no
   * room, `freesAt` is when this contact's place in the queue frees: place k is the k-th oldest
   * counted recipient's (its time + 24 hours), and a place past the limit is that of the place one
   * limit earlier, a day later. Rounded up to the minute, so a later run computes the same time
   * (and records nothing new) and the contacts of one minute go together. With `placesHeld` (the
   * places the run holds in the store's budget), the room is also no more than those not promised
   * to a reserved recipient: the store's other processes hold the rest.
   */
  budget(ledger: LedgerView, phone: string, now: number, limit: number, placesHeld?: number): Budget {
    const since = now - DAY_MS;
    const inLedger = (ledger.lastOutsideWindowAt(phone) ?? -Infinity) > since;
    const used = ledger.uniqueOutsideWindowSince(since);
    const busy = used + this.held.size;
    const place = Math.max(0, busy + this.queued - limit);
    const days = Math.floor(place / limit);
    const slot = place - days * limit;
    const base = (slot < used ? ledger.nthOutsideWindowSince(since, slot) : undefined) ?? now;
    const freesAt = Math.ceil((base + (days + 1) * DAY_MS) / MINUTE_MS) * MINUTE_MS;
    const room = placesHeld === undefined ? limit - busy : Math.min(limit - busy, placesHeld - this.held.size);
    return { room, freesAt, counted: inLedger || this.held.has(phone) };
  }
}
