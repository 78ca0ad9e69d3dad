import { MAX_RATE_LIMITED, type ProviderStopReason } from './context.js';
import { providerRefusalOf, type Outcome, type ProviderRefusal } from './outcome.js';
import { accountStopMessage, providerClassInfo, templateStopMessage, type ProviderClass } from './provider-classes.js';

/**
 * The send path's decision after one answer, as one pure, ordered table (stripe-node's `_shouldRetry`):
 * `nextStep(outcome, tries, plan)` says what to do before the record (pause everyone, stop the run,
 * suppress the phone), what to record, and what comes next (send again, after which wait and with
 * which payload; fail; defer; in doubt). The first row that matches decides. The loop around it
 * (`run/deliver.ts`) only records, sleeps and calls. Plain values in, plain values out.
 */

/** The contact's counters across the sends of one delivery. */
export interface Tries {
  /** Retries spent of `retry.attempts` (502s without a code, pair-rate waits). */
  retries: number;
  /** Throughput refusals met (like 429s, they do not spend `retry.attempts`). */
  throughput: number;
  /** 429s in a row on the current send (any other answer starts the count again). */
  limited: number;
}

export const NO_TRIES: Tries = { retries: 0, throughput: 0, limited: 0 };

/** What the decision needs to know of the send besides its answer. */
export interface StepPlan {
  /** The conversation the next send would go to is known (never a second start-whatsapp). */
  hasConversation: boolean;
  /** The payload is free text with the job's template to fall back on, on a wba/whatsapp channel. */
  canFallBackToTemplate: boolean;
  /** The channel is `wba`/`whatsapp` (a plain 502 on text then sends the template instead). */
  templatesAllowed: boolean;
  /** `retry.attempts` of the job. */
  attempts: number;
  /** The run stopped taking work. */
  stopped: boolean;
  /** The template this send carried (for the stop sentence of a template refusal). */
  template?: { name: string; language: string };
  /** Earlier marketing-limit deferrals of this contact (from its state). */
  marketingLimits: number;
  /** In a pool: another number than this send's is still sending (a number in trouble is then drained, not the run stopped). */
  otherNumbersLive?: boolean;
}

/** A wait before sending again; the loop turns it into milliseconds with its own random draw. */
export type Wait = { kind: 'backoff'; attempt: number } | { kind: 'pair_rate'; attempt: number };

/** What happens before the answer is recorded. */
export type Effect =
  /** Every request pauses and the limiter slows (a 429, a throughput refusal). */
  | { kind: 'pause_all'; retryAfterMs?: number; consecutive: number }
  /** The whole run stops after the requests in flight. */
  | { kind: 'stop_run'; reason: ProviderStopReason; message: string }
  /** The token was refused: the whole run stops. */
  | { kind: 'auth_refused'; error: string }
  /** The phone goes on the suppression list first (a crash between the two never loses the opt-out). */
  | { kind: 'suppress'; reason: string }
  /** This send's number sends nothing more in this run (a pool's number in trouble); `error` has the provider's words. */
  | { kind: 'drain'; code: number; error: string };

/** What the answer leaves in the journal. */
export type Note =
  | { kind: 'none' }
  | { kind: 'failed'; status: number; retryable: boolean; error: string; provider?: ProviderRefusal }
  | { kind: 'in_doubt'; error: string };

/** What the delivery does next. */
export type Then =
  /**
   * Send again on the same conversation, after `wait`; `template`: the job's template instead of the text.
   * `orIfStopped`: the failure to end with when the run stopped meanwhile (without it, the next send finds the stop).
   */
  | { kind: 'again'; wait?: Wait; template?: true; orIfStopped?: { error: string } }
  | { kind: 'failed'; error: string; retryable: boolean }
  /** Deferred for the marketing limit: `repeats` earlier ones double the wait. */
  | { kind: 'deferred'; repeats: number }
  | { kind: 'in_doubt'; error: string };

export interface Step {
  /** The table's row that decided (for tests and the log). */
  row: RowName;
  tries: Tries;
  effect?: Effect;
  note: Note;
  then: Then;
  /** The provider's class when its refusal decided. */
  providerClass?: ProviderClass;
}

type RowName =
  | 'rate_limited'
  | 'provider_throughput'
  | 'provider_pair_rate'
  | 'provider_window_closed'
  | 'provider_refused'
  | 'provider_opted_out'
  | 'provider_marketing_limit'
  | 'provider_template'
  | 'provider_drain'
  | 'provider_account'
  | 'lost_conversation'
  | 'transient'
  | 'refused'
  | 'auth'
  | 'in_doubt';

type Answer = { outcome: Outcome; refusal: (ProviderRefusal & { httpStatus: number }) | undefined; tries: Tries; plan: StepPlan };
interface Row {
  name: RowName;
  when: (a: Answer) => boolean;
  step: (a: Answer) => Omit<Step, 'row'>;
}

const isClass = (...classes: ProviderClass[]) => (a: Answer) => a.refusal !== undefined && classes.includes(a.refusal.class);
const providerError = (a: Answer, r: ProviderRefusal) => `${providerClassInfo(r.class).label} (${r.code}): ${a.outcome.error}`;

/** The failure record of a provider refusal, with its code and class. */
function refusalNote(a: Answer, retryable: boolean): Note {
  const r = a.refusal as ProviderRefusal & { httpStatus: number };
  return { kind: 'failed', status: r.httpStatus, retryable, error: providerError(a, r), provider: { code: r.code, class: r.class } };
}

function refusalOf(a: Answer): ProviderRefusal & { httpStatus: number } {
  if (a.refusal === undefined) throw new Error('a provider row matched an answer without a provider refusal');
  return a.refusal;
}

/** Sending again needs the conversation (never a second start-whatsapp) and a run still going. */
const mayGoAgain = (a: Answer) => a.plan.hasConversation && !a.plan.stopped;
const reset = (t: Tries): Tries => ({ ...t, limited: 0 });
const statusOf = (o: Outcome) => (o.kind === 'rate_limited' ? 429 : o.kind === 'not_sent' ? 0 : o.httpStatus);

/** The table, in order: the first row whose `when` holds decides. */
export const ROWS: readonly Row[] = [
  {
    // 429: nothing was done; everyone waits and the request goes again, up to MAX_RATE_LIMITED in a row.
    name: 'rate_limited',
    when: (a) => a.outcome.kind === 'rate_limited',
    step: ({ outcome, tries }) => {
      const limited = tries.limited + 1;
      const retryAfterMs = outcome.kind === 'rate_limited' ? outcome.retryAfterMs : undefined;
      const note: Note = { kind: 'failed', status: 429, retryable: true, error: outcome.error };
      return limited <= MAX_RATE_LIMITED
        ? { tries: { ...tries, limited }, effect: { kind: 'pause_all', consecutive: limited, ...(retryAfterMs !== undefined && { retryAfterMs }) }, note, then: { kind: 'again' } }
        : { tries: { ...tries, limited }, note, then: { kind: 'failed', error: outcome.error, retryable: true } };
    },
  },
  {
    // Like a 429: everyone pauses and the limiter slows down, then this send goes again.
    name: 'provider_throughput',
    when: isClass('throughput'),
    step: (a) => {
      const throughput = a.tries.throughput + 1;
      const r = refusalOf(a);
      const error = providerError(a, r);
      if (throughput > MAX_RATE_LIMITED && a.plan.otherNumbersLive === true && mayGoAgain(a)) {
        // A rate this number cannot sustain, in a pool: it is drained, and the contact goes from another number.
        return {
          tries: { ...reset(a.tries), throughput: 0 },
          effect: { kind: 'drain', code: r.code, error: a.outcome.error },
          note: refusalNote(a, true),
          then: { kind: 'again', orIfStopped: { error } },
        };
      }
      return {
        tries: { ...reset(a.tries), throughput },
        effect: { kind: 'pause_all', consecutive: throughput },
        note: refusalNote(a, true),
        then: throughput <= MAX_RATE_LIMITED && mayGoAgain(a) ? { kind: 'again', orIfStopped: { error } } : { kind: 'failed', error, retryable: true },
      };
    },
  },
  {
    // This contact only: it waits, the other workers go on.
    name: 'provider_pair_rate',
    when: isClass('pair_rate'),
    step: (a) => {
      const error = providerError(a, refusalOf(a));
      if (a.tries.retries >= a.plan.attempts || !mayGoAgain(a)) {
        return { tries: reset(a.tries), note: refusalNote(a, true), then: { kind: 'failed', error, retryable: true } };
      }
      const retries = a.tries.retries + 1;
      return {
        tries: { ...reset(a.tries), retries },
        note: refusalNote(a, true),
        then: { kind: 'again', wait: { kind: 'pair_rate', attempt: retries }, orIfStopped: { error } },
      };
    },
  },
  {
    // Free text refused: the window had closed; the template goes on the same conversation, if there is one.
    name: 'provider_window_closed',
    when: isClass('window_closed'),
    step: (a) => {
      const error = providerError(a, refusalOf(a));
      if (!a.plan.canFallBackToTemplate) return { tries: reset(a.tries), note: refusalNote(a, false), then: { kind: 'failed', error, retryable: false } };
      return {
        tries: reset(a.tries),
        note: refusalNote(a, true),
        then: mayGoAgain(a) ? { kind: 'again', template: true, orIfStopped: { error } } : { kind: 'failed', error, retryable: true },
      };
    },
  },
  {
    name: 'provider_refused',
    when: isClass('undeliverable', 'bad_request'),
    step: (a) => ({ tries: reset(a.tries), note: refusalNote(a, false), then: { kind: 'failed', error: providerError(a, refusalOf(a)), retryable: false } }),
  },
  {
    name: 'provider_opted_out',
    when: isClass('opted_out'),
    step: (a) => {
      const r = refusalOf(a);
      return {
        tries: reset(a.tries),
        effect: { kind: 'suppress', reason: `the provider refused with ${r.code}: ${providerClassInfo(r.class).label}` },
        note: refusalNote(a, false),
        then: { kind: 'failed', error: providerError(a, r), retryable: false },
      };
    },
  },
  {
    // The refusal first (it ends the attempt), then the deferral; never sent again in this run.
    name: 'provider_marketing_limit',
    when: isClass('marketing_limit'),
    step: (a) => ({ tries: reset(a.tries), note: refusalNote(a, true), then: { kind: 'deferred', repeats: a.plan.marketingLimits } }),
  },
  {
    // The run stops before the refusal is journaled, so no worker takes another contact meanwhile.
    name: 'provider_template',
    when: isClass('template'),
    step: (a) => {
      const r = refusalOf(a);
      const template = a.plan.template ?? { name: 'of the job', language: 'unknown language' };
      return {
        tries: reset(a.tries),
        effect: { kind: 'stop_run', reason: 'provider_template', message: templateStopMessage(r.code, template, a.outcome.error) },
        note: refusalNote(a, true),
        then: { kind: 'failed', error: providerError(a, r), retryable: true },
      };
    },
  },
  {
    // A number in trouble in a pool: drained for the rest of the run; this contact's message was never
    // accepted, so it goes again from another number of the pool (a fresh start, not a second message).
    name: 'provider_drain',
    when: (a) => isClass('account')(a) && a.plan.otherNumbersLive === true,
    step: (a) => {
      const r = refusalOf(a);
      const error = providerError(a, r);
      return {
        tries: reset(a.tries),
        effect: { kind: 'drain', code: r.code, error: a.outcome.error },
        note: refusalNote(a, true),
        then: { kind: 'again', orIfStopped: { error } },
      };
    },
  },
  {
    name: 'provider_account',
    when: isClass('account'),
    step: (a) => {
      const r = refusalOf(a);
      return {
        tries: reset(a.tries),
        effect: { kind: 'stop_run', reason: 'provider_account', message: accountStopMessage(r.code, a.outcome.error) },
        note: refusalNote(a, true),
        then: { kind: 'failed', error: providerError(a, r), retryable: true },
      };
    },
  },
  {
    // The platform's 502 always carries the ids (A3): one without them may have been delivered.
    name: 'lost_conversation',
    when: (a) => a.outcome.kind === 'send_failed' && !a.plan.hasConversation,
    step: (a) => {
      const error = `${a.outcome.error} (no conversation id came back: the message may have gone out)`;
      return { tries: reset(a.tries), note: { kind: 'in_doubt', error }, then: { kind: 'in_doubt', error } };
    },
  },
  {
    // A 502 on the conversation, or nothing sent at all: wait and send again; on wba/whatsapp a refused
    // text had its window closed after all, so the template goes instead.
    name: 'transient',
    when: (a) => a.outcome.kind === 'send_failed' || a.outcome.kind === 'not_sent',
    step: ({ outcome, tries, plan }) => {
      const note: Note = { kind: 'failed', status: statusOf(outcome), retryable: true, error: outcome.error };
      if (tries.retries >= plan.attempts || plan.stopped) return { tries: reset(tries), note, then: { kind: 'failed', error: outcome.error, retryable: true } };
      const retries = tries.retries + 1;
      return {
        tries: { ...reset(tries), retries },
        note,
        then: {
          kind: 'again',
          wait: { kind: 'backoff', attempt: retries },
          ...(outcome.kind === 'send_failed' && plan.templatesAllowed && { template: true as const }),
          orIfStopped: { error: outcome.error },
        },
      };
    },
  },
  {
    name: 'refused',
    when: (a) => a.outcome.kind === 'refused',
    step: ({ outcome, tries }) => ({
      tries: reset(tries),
      note: { kind: 'failed', status: statusOf(outcome), retryable: false, error: outcome.error },
      then: { kind: 'failed', error: outcome.error, retryable: false },
    }),
  },
  {
    name: 'auth',
    when: (a) => a.outcome.kind === 'auth',
    step: ({ outcome, tries }) => ({
      tries: reset(tries),
      effect: { kind: 'auth_refused', error: outcome.error },
      note: { kind: 'failed', status: statusOf(outcome), retryable: true, error: outcome.error },
      then: { kind: 'failed', error: outcome.error, retryable: true },
    }),
  },
  {
    name: 'in_doubt',
    when: (a) => a.outcome.kind === 'in_doubt',
    step: ({ outcome, tries }) => ({ tries: reset(tries), note: { kind: 'in_doubt', error: outcome.error }, then: { kind: 'in_doubt', error: outcome.error } }),
  },
];

/** The step after one answer that was not a success: the first row of the table that matches. */
export function nextStep(outcome: Outcome, tries: Tries, plan: StepPlan): Step {
  const answer: Answer = { outcome, refusal: providerRefusalOf(outcome), tries, plan };
  for (const row of ROWS) {
    if (row.when(answer)) {
      const step = row.step(answer);
      return { row: row.name, ...step, ...(answer.refusal !== undefined && { providerClass: answer.refusal.class }) };
    }
  }
  throw new Error(`no row of the send table matches the answer ${outcome.kind}`);
}
