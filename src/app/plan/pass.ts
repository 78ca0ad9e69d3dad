import type { ContactState, DeferredState } from '../../checkpoint/index.js';
import { describeWarnings, type Contact, type Reject } from '../../contacts/index.js';
import { deferredCounter, type DeferredGroup } from '../../report/index.js';
import { contactNumber, rendezvousNumber, shouldSend, stepsOwed } from '../../run/index.js';
import { actionLabel, decide, heldReject, recipientZone, zoneRules, type Action } from '../../plan/index.js';
import { numberZone } from '../../contacts/index.js';
import { parseStartAt, startInstant } from '../../job/index.js';
import { audience } from '../audience/index.js';
import { noteDecision } from '../protection/index.js';
import type { MessagedByOtherJobs, OtherJobsTally } from '../account/index.js';
import type { PlanLookups } from './lookups.js';
import { planContextFor } from './lookups.js';
import { requestsPerSend } from './estimate.js';
import type { Prepared } from '../prepare/index.js';

/** What a full read of the contact list says, before anything is sent. */
export interface PlanPass {
  rows: number;
  contacts: number;
  rejects: Reject[];
  rejectedByReason: Record<string, number>;
  /** Planned action label → contacts (template, text, text+media, template+media, skip:<reason>, defer:<reason>). */
  byAction: Record<string, number>;
  examples: Array<{ phone: string; line: number; action: string; message: string; variant?: string }>;
  /** The last two usable contacts of the list, in list order (the demo picks them for refusals). */
  lastPhones: string[];
  /** The loader's warnings (rows that load, with something the user should hear about), one sentence per kind with examples. */
  loaderWarnings: string[];
  /** Contacts `run` would send a message to now: planned a message, not settled by an earlier run, and not deferred by it to a later time. */
  wouldSendNow: number;
  /** Contacts deferred to a later time, by reason: by the planner now, or by an earlier run until a time still ahead (the provider's marketing limit, a queue place). */
  deferred: DeferredGroup[];
  /** Usable contacts by the country of their normalised number (ISO code; `unknown` for numbers of no country). */
  byCountry: Record<string, number>;
  /** With a pool of numbers: the contacts `run` would send now, by the number each goes from (channel id). */
  byNumber?: Record<string, number>;
  /** With `message.variants`: per variant (name, index or `default`), the planned actions by label. */
  byVariant: Record<string, Record<string, number>>;
  /** Contacts in their own zone (send_window "recipient", or the job's default_timezone): those whose zone is `default_timezone` (no zone cell, a number of several zones or none). */
  zoneFallbacks?: { count: number; zone: string };
  /** Contacts in their own zone: how many in each zone (IANA name). */
  byZone?: Record<string, number>;
  /** The job's start_at: one instant, or each contact's own local time, with the zones that start first and last (of the contacts planned). */
  startAt?: { kind: 'instant'; at: number } | { kind: 'local'; text: string; first?: { zone: string; at: number }; last?: { zone: string; at: number } };
  /** Contacts not settled by this job that other jobs of the state folder messaged lately (with `otherJobs`). */
  messagedByOtherJobs?: MessagedByOtherJobs;
  /** A follow-up: rows of the earlier job's list it does not take (contacts in no outcome of `who`, and the earlier job's own rejects). */
  notTaken?: number;
  /** Requests the contacts of `wouldSendNow` take: each first message and its after-send steps (estimate.ts); `owedSteps` included. */
  requestsNow: number;
  /** After-send steps that contacts sent by an earlier run still owe (a tag that failed…): `run` takes them too, each a request. */
  owedSteps: number;
  /** With `send_window`: the zones of the contacts of `wouldSendNow`. */
  sendZones: string[];
}

const EXAMPLES = 3;
/** What `run` (not `resume`) takes up again. */
const RUN = { retryFailed: false, retryInDoubt: false };

/**
 * The planner's choice for each contact of a prepared job at `now`, with what the store knows. A pool's
 * contact is planned on its own number (`remembered`, as the run chooses it): text only when its window is there.
 */
export function plannerFor(prepared: Prepared, lookups: PlanLookups, now: number, remembered?: (phone: string) => number | undefined): (contact: Contact) => Action {
  const pool = prepared.pool;
  const ids = pool.map((ch) => ch.id);
  return (contact) => {
    const own = pool.length > 1 ? contactNumber(contact.phone, ids, ids, remembered?.(contact.phone))?.id : undefined;
    const channel = (own !== undefined && pool.find((ch) => ch.id === own)) || prepared.channel;
    const context = planContextFor(lookups, contact, now, pool.length > 1 ? { from: own } : undefined);
    const action = decide(contact, channel, prepared.job, context);
    if (lookups.compliance) noteDecision(lookups.compliance, contact, action, context);
    return action;
  };
}

/**
 * Reads the whole list once: loader rejects, the planner's rejects, and each contact's planned
 * action, for `plan`'s summary (`run` counts the same as it sends: run/send-pass.ts). A contact an
 * earlier run deferred until after `now` is not decided: `run` leaves it until then, so the plan
 * counts it deferred, with that run's reason and time.
 */
export async function planPass(
  prepared: Prepared,
  planner: (contact: Contact) => Action,
  prior: (phone: string) => ContactState | undefined = () => undefined,
  options: { now?: number; tally?: OtherJobsTally; /** A pool: the number the store last sent a phone a first message from (the send ledger). */ remembered?: (phone: string) => number | undefined } = {},
): Promise<PlanPass> {
  const { now } = options;
  const pool = prepared.job.channels;
  const pass: PlanPass = { rows: 0, contacts: 0, rejects: [], rejectedByReason: {}, byAction: {}, examples: [], lastPhones: [], loaderWarnings: [], wouldSendNow: 0, deferred: [], byCountry: {}, byVariant: {}, requestsNow: 0, owedSteps: 0, sendZones: [] };
  const zones = new Set<string>();
  const deferred = deferredCounter();
  const heldBack = (state: ContactState | undefined): DeferredState | undefined => (state?.status === 'deferred' && !shouldSend(state, RUN, now) ? state : undefined);
  const decideHeld = (contact: Contact): Action | undefined => {
    const state = prior(contact.phone);
    return heldBack(state) ? undefined : heldReject(planner(contact), state !== undefined);
  };
  const { items, counts } = audience(prepared, { decide: decideHeld });
  const window = prepared.job.send_window;
  const rules = zoneRules(prepared.job);
  if (rules?.timezone === 'recipient' && rules.default_timezone !== undefined) {
    pass.zoneFallbacks = { count: 0, zone: rules.default_timezone };
    pass.byZone = {};
  }
  const start = prepared.job.start_at === undefined ? undefined : parseStartAt(prepared.job.start_at);
  if (start?.kind === 'instant') pass.startAt = { kind: 'instant', at: start.at };
  const local: Extract<PlanPass['startAt'], { kind: 'local' }> | undefined = start?.kind === 'local' ? { kind: 'local', text: start.text } : undefined;
  if (local) pass.startAt = local;
  const zoneOf = (contact: Contact) => (rules ? recipientZone(contact, rules, rules.timezone === 'recipient' ? numberZone(contact.phone) : undefined) : undefined);
  for await (const item of items) {
    if (item.kind === 'reject') {
      pass.rejects.push(item.reject);
      pass.rejectedByReason[item.reject.reason] = (pass.rejectedByReason[item.reject.reason] ?? 0) + 1;
    } else if (item.kind === 'contact') {
      const { contact } = item;
      const state = prior(contact.phone);
      const held = heldBack(state);
      // A contact held back by an earlier run's deferral counts as that deferral, not as the planner's choice.
      const action = held ? undefined : item.action;
      const label = held ? `defer:${held.reason}` : action && actionLabel(action);
      if (label === undefined) continue;
      pass.contacts += 1;
      pass.lastPhones.push(contact.phone);
      if (pass.lastPhones.length > 2) pass.lastPhones.shift();
      const own = zoneOf(contact);
      if (own !== undefined && pass.byZone !== undefined) pass.byZone[own.zone] = (pass.byZone[own.zone] ?? 0) + 1;
      if (pass.zoneFallbacks !== undefined && own?.source === 'default') pass.zoneFallbacks.count += 1;
      if (local && start && own !== undefined) {
        const at = startInstant(start, own.zone);
        if (local.first === undefined || at < local.first.at) local.first = { zone: own.zone, at };
        if (local.last === undefined || at > local.last.at) local.last = { zone: own.zone, at };
      }
      pass.byAction[label] = (pass.byAction[label] ?? 0) + 1;
      const country = contact.country ?? 'unknown';
      pass.byCountry[country] = (pass.byCountry[country] ?? 0) + 1;
      const variant = held ? held.variant : action && 'variant' in action ? action.variant : undefined;
      if (variant !== undefined) {
        const counts = (pass.byVariant[variant] ??= {});
        counts[label] = (counts[label] ?? 0) + 1;
      }
      if (held) deferred.add(held);
      else if (action?.kind === 'defer') deferred.add(deferredState(contact.phone, action));
      if ((action?.kind === 'template' || action?.kind === 'text') && shouldSend(state, RUN, now)) {
        pass.wouldSendNow += 1;
        if (pool.length > 1) {
          const id = String(contactNumber(contact.phone, pool, pool, options.remembered?.(contact.phone))?.id ?? rendezvousNumber(contact.phone, pool));
          const byNumber = (pass.byNumber ??= {});
          byNumber[id] = (byNumber[id] ?? 0) + 1;
        }
        pass.requestsNow += requestsPerSend(action, prepared.job);
        if (window && own !== undefined) zones.add(own.zone);
      } else if (state?.status === 'sent') {
        const owed = stepsOwed(prepared.job, state, contact, false);
        pass.owedSteps += owed;
        pass.requestsNow += owed;
      }
      // Contacts this job has not settled (a later deferral of its own included) that other jobs messaged lately.
      if (now !== undefined && shouldSend(state, RUN)) options.tally?.note(contact.phone, now, action);
      const message = action ? rendered(action) : '';
      // Three examples, and one of each variant besides.
      const firstOfVariant = variant !== undefined && !pass.examples.some((e) => e.variant === variant);
      if (message && (pass.examples.length < EXAMPLES || firstOfVariant)) {
        pass.examples.push({ phone: contact.phone, line: contact.line, action: label, message, ...(variant !== undefined && { variant }) });
      }
    }
  }
  pass.rows = counts.rows;
  if (prepared.only !== undefined) pass.notTaken = Math.max(0, counts.rows - pass.contacts - pass.rejects.length);
  pass.sendZones = [...zones].sort();
  pass.deferred = deferred.result();
  if (options.tally) pass.messagedByOtherJobs = options.tally.result();
  pass.loaderWarnings = describeWarnings(counts.warningsByKind);
  return pass;
}

/** A planner's deferral as the state it would leave, for the groups by reason. */
function deferredState(phone: string, action: Extract<Action, { kind: 'defer' }>): DeferredState {
  return { phone, status: 'deferred', attempts: 0, followups: {}, reason: action.reason, notBefore: new Date(action.notBefore).toISOString(), ...(action.zone !== undefined && { zone: action.zone }) };
}

/** Too many rejects usually means a wrong column mapping or country: the sentence that stops the job, if so. */
export function rejectRatioProblem(maxRatio: number, pass: Pick<PlanPass, 'rows' | 'rejects' | 'rejectedByReason'>, rejectsFile: string): string | undefined {
  if (pass.rows === 0) return undefined;
  const ratio = pass.rejects.length / pass.rows;
  if (ratio <= maxRatio) return undefined;
  const top = Object.entries(pass.rejectedByReason)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  return (
    `${pass.rejects.length} of ${pass.rows} rows rejected (${percent(ratio)}), more than limits.max_reject_ratio ${maxRatio} (${top}); ` +
    `check columns and default_country in the job, see ${rejectsFile}`
  );
}

export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

/** An action's message as people read it (plan's examples, a test send). */
export function rendered(action: Action): string {
  switch (action.kind) {
    case 'template': {
      const vars = Object.entries(action.template.variables)
        .map(([k, v]) => `{{${k}}}=${JSON.stringify(v)}`)
        .join(', ');
      return `template ${action.template.name} (${action.template.language}) ${vars}${action.media ? ` + media ${action.media.media.url}` : ''}`;
    }
    case 'text':
      return `${JSON.stringify(action.text)}${action.media ? ` + media ${action.media.media.url}` : ''}`;
    case 'skip':
    case 'defer':
    case 'reject':
      return '';
    default: {
      const never: never = action;
      return never;
    }
  }
}
