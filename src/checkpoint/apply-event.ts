import { afterReconciled, sentState, sentWithDelivery } from './apply-delivery.js';
import type { CheckpointEvent, ContactEvent, ContactState, SentState } from './types.js';

/** The error of a contact whose last attempt has no outcome after it. */
export const NO_ANSWER = 'no answer recorded (the run stopped while the request was in flight)';

/**
 * Folds one event into the per-phone state: the one reducer shared by replay and by the live
 * store, so what a run believes and what a restart replays cannot differ.
 *
 * - `sent` is terminal: nothing after it changes the status, the ids or the error.
 * - An `attempt` makes the contact `in_doubt` until its outcome arrives.
 * - Ids once known are never forgotten (a later event without them keeps them).
 * - A `skipped` or `deferred` does not cover an `in_doubt`: a decision not to act says nothing about
 *   whether the earlier request reached the platform.
 * - A follow-up step once done stays done; one recorded as an attempt (or answered by nothing)
 *   stays in doubt until a definite outcome.
 * - `delivery` and `reconciled` (read back from the platform after a run) fold in apply-delivery.ts.
 */
export function applyEvent(state: Map<string, ContactState>, event: CheckpointEvent): void {
  if (event.t === 'header') return;
  state.set(event.phone, nextState(state.get(event.phone), event));
}

/** The state after `event`, from the state before it (undefined for a phone not seen yet). Pure. */
export function nextState(prior: ContactState | undefined, event: ContactEvent): ContactState {
  // The two events of every contact a run sends, built field by field: the same state, in the same key order, as below.
  if (event.t === 'attempt' && prior === undefined) return firstAttempt(event);
  if (event.t === 'sent' && prior !== undefined && prior.status !== 'sent') return sentFrom(prior, event);
  const before: ContactState = prior ?? { phone: event.phone, status: 'pending', attempts: 0, followups: {} };
  const base = { ...common(before), updatedAt: event.at, ...marketingLimitsAfter(before, event) };
  if (before.status === 'sent') return sentAfter(before, event, base);
  const known = {
    ...(before.via !== undefined && { via: before.via }),
    ...(before.action !== undefined && { action: before.action }),
    ...(before.variant !== undefined && { variant: before.variant }),
    ...(before.conversationId !== undefined && { conversationId: before.conversationId }),
    ...(before.clientId !== undefined && { clientId: before.clientId }),
  };

  switch (event.t) {
    case 'attempt':
      return {
        ...base,
        ...known,
        attempts: base.attempts + 1,
        ...(event.line !== undefined && { line: event.line }),
        ...(event.conversation_id !== undefined && { conversationId: event.conversation_id }),
        ...(event.variant !== undefined && { variant: event.variant }),
        ...(event.channel_id !== undefined && { channelId: event.channel_id }),
        status: 'in_doubt',
        via: event.via,
        action: event.action,
        error: NO_ANSWER,
        attemptAt: event.at,
      };
    case 'sent':
      return {
        ...sentState(base, event, known.clientId, event.at),
        ...(event.media_left_out !== undefined && { mediaLeftOut: event.media_left_out }),
        ...(event.media_owed !== undefined && { mediaOwed: event.media_owed }),
        ...(event.variant !== undefined ? { variant: event.variant } : known.variant !== undefined && { variant: known.variant }),
        ...(event.channel_id !== undefined && { channelId: event.channel_id }),
      };
    case 'failed':
      return {
        ...base,
        ...known,
        ...ids(event.conversation_id, event.client_id),
        status: 'failed',
        via: event.via,
        action: event.action,
        httpStatus: event.status,
        retryable: event.retryable,
        error: event.error,
        ...refusal(event),
      };
    case 'in_doubt': {
      const attemptAt = before.status === 'in_doubt' ? before.attemptAt : undefined;
      return {
        ...base,
        ...known,
        ...ids(event.conversation_id, event.client_id),
        status: 'in_doubt',
        via: event.via,
        action: event.action,
        error: event.error,
        ...(attemptAt !== undefined && { attemptAt }),
      };
    }
    case 'skipped':
    case 'deferred': {
      const withLine = { ...base, ...(event.line !== undefined && { line: event.line }) };
      if (before.status === 'in_doubt') return { ...before, ...withLine };
      return event.t === 'skipped'
        ? { ...withLine, ...known, status: 'skipped', reason: event.reason, ...(event.detail !== undefined && { detail: event.detail }) }
        : { ...withLine, ...known, status: 'deferred', reason: event.reason, notBefore: event.not_before, ...refusal(event), ...(event.zone !== undefined && { zone: event.zone }) };
    }
    case 'followup':
      return withFollowups({ ...before, ...base }, followupAfter(before, event));
    case 'delivery':
      return before;
    case 'reconciled':
      return afterReconciled(before, event, base, known);
    default: {
      const unknown: never = event;
      throw new Error(`unknown checkpoint event ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * `nextState(undefined, event)` for an attempt, without the spreads of the general case (a run folds
 * one per contact as it records it): phone, attempts, followups, updatedAt, the event's line, conversation,
 * variant and number when it has them, then status, via, action, error and attemptAt.
 */
function firstAttempt(event: Extract<ContactEvent, { t: 'attempt' }>): ContactState {
  const s: Record<string, unknown> = { phone: event.phone, attempts: 1, followups: {}, updatedAt: event.at };
  if (event.line !== undefined) s.line = event.line;
  if (event.conversation_id !== undefined) s.conversationId = event.conversation_id;
  if (event.variant !== undefined) s.variant = event.variant;
  if (event.channel_id !== undefined) s.channelId = event.channel_id;
  s.status = 'in_doubt';
  s.via = event.via;
  s.action = event.action;
  s.error = NO_ANSWER;
  s.attemptAt = event.at;
  return s as unknown as ContactState;
}

/**
 * `nextState(before, event)` for a `sent` after any state but sent, without the spreads of the general
 * case: `common(before)`, updatedAt (the marketing-limit count is common's own: a sent adds none), then
 * the sent's fields, the client id and variant known before kept when the event has none.
 */
function sentFrom(before: Exclude<ContactState, SentState>, event: Extract<ContactEvent, { t: 'sent' }>): ContactState {
  const s: Record<string, unknown> = { phone: before.phone, attempts: before.attempts, followups: before.followups };
  if (before.line !== undefined) s.line = before.line;
  if (before.followupErrors !== undefined) s.followupErrors = before.followupErrors;
  if (before.followupsInDoubt !== undefined) s.followupsInDoubt = before.followupsInDoubt;
  if (before.marketingLimits !== undefined) s.marketingLimits = before.marketingLimits;
  if (before.channelId !== undefined) s.channelId = before.channelId;
  s.updatedAt = event.at;
  s.status = 'sent';
  s.via = event.via;
  s.action = event.action;
  s.conversationId = event.conversation_id;
  const clientId = event.client_id !== undefined ? event.client_id : before.clientId;
  if (clientId !== undefined) s.clientId = clientId;
  s.messageId = event.message_id;
  s.sentAt = event.at;
  if (event.media_left_out !== undefined) s.mediaLeftOut = event.media_left_out;
  if (event.media_owed !== undefined) s.mediaOwed = event.media_owed;
  const variant = event.variant !== undefined ? event.variant : before.variant;
  if (variant !== undefined) s.variant = variant;
  if (event.channel_id !== undefined) s.channelId = event.channel_id;
  return s as unknown as ContactState;
}

/** A sent contact: only attempts (counted), line and follow-ups still change. */
function sentAfter(before: SentState, event: ContactEvent, base: ReturnType<typeof common> & { updatedAt: string }): SentState {
  const next: SentState = { ...before, ...base };
  if (event.t === 'attempt') {
    next.attempts += 1;
    if (event.line !== undefined) next.line = event.line;
  } else if (event.t === 'skipped' || event.t === 'deferred') {
    if (event.line !== undefined) next.line = event.line;
  } else if (event.t === 'followup') {
    return withFollowups(next, followupAfter(before, event));
  } else if (event.t === 'delivery') {
    return sentWithDelivery(next, event);
  }
  return next;
}

function common(s: ContactState) {
  return {
    phone: s.phone,
    attempts: s.attempts,
    followups: s.followups,
    ...(s.line !== undefined && { line: s.line }),
    ...(s.followupErrors !== undefined && { followupErrors: s.followupErrors }),
    ...(s.followupsInDoubt !== undefined && { followupsInDoubt: s.followupsInDoubt }),
    ...(s.marketingLimits !== undefined && { marketingLimits: s.marketingLimits }),
    ...(s.channelId !== undefined && { channelId: s.channelId }),
  };
}

/** The reason of a deferral by the provider's per-user marketing limit (131049); each one is counted. */
export const MARKETING_LIMIT_REASON = 'marketing_limit';

/** The count of marketing-limit deferrals after `event`, when there is one. */
function marketingLimitsAfter(before: ContactState, event: ContactEvent): { marketingLimits?: number } {
  const count = (before.marketingLimits ?? 0) + (event.t === 'deferred' && event.reason === MARKETING_LIMIT_REASON ? 1 : 0);
  return count > 0 ? { marketingLimits: count } : {};
}

/** A provider refusal's code and class, as the state keeps them. */
function refusal(event: { code?: number; error_class?: string }) {
  return {
    ...(event.code !== undefined && { code: event.code }),
    ...(event.error_class !== undefined && { errorClass: event.error_class }),
  };
}

function ids(conversationId: string | undefined, clientId: string | undefined) {
  return {
    ...(conversationId !== undefined && { conversationId }),
    ...(clientId !== undefined && { clientId }),
  };
}

type FollowupFields = Pick<ContactState, 'followups' | 'followupErrors' | 'followupsInDoubt'>;

/** `s` with its follow-up bookkeeping replaced (an empty map of errors or doubts is left out). */
function withFollowups<S extends ContactState>(s: S, fields: FollowupFields): S {
  const next = { ...s, followups: fields.followups };
  delete next.followupErrors;
  delete next.followupsInDoubt;
  if (fields.followupErrors) next.followupErrors = fields.followupErrors;
  if (fields.followupsInDoubt) next.followupsInDoubt = fields.followupsInDoubt;
  return next;
}

/** The follow-up bookkeeping after one `followup` event (new objects; the old ones are not touched). */
function followupAfter(s: ContactState, event: Extract<ContactEvent, { t: 'followup' }>): FollowupFields {
  const { step, ok, error } = event;
  const inDoubt = event.attempt === true || event.in_doubt === true;
  const followups = { ...s.followups };
  const errors = { ...s.followupErrors };
  const doubts: Record<string, true> = { ...s.followupsInDoubt };
  const done = followups[step] === true || ok;
  if (!done && inDoubt) {
    // An attempt (until its outcome) or an answerless request: it may have been delivered.
    doubts[step] = true;
    if (followups[step] === undefined) followups[step] = false;
    if (error !== undefined) errors[step] = error;
  } else {
    delete doubts[step];
    followups[step] = done;
    if (done) delete errors[step];
    else if (error !== undefined) errors[step] = error;
  }
  return {
    followups,
    ...(Object.keys(errors).length > 0 ? { followupErrors: errors } : {}),
    ...(Object.keys(doubts).length > 0 ? { followupsInDoubt: doubts } : {}),
  };
}
