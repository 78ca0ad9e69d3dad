import type { CheckpointEvent, ContactState } from './types.js';

/** The error of a contact whose last attempt has no outcome after it. */
export const NO_ANSWER = 'no answer recorded (the run stopped while the request was in flight)';

/**
 * Folds one event into the per-phone state (mutating it): the one reducer shared by replay and by
 * the live checkpoint, so what a run believes and what a restart replays cannot differ.
 *
 * - `sent` is terminal: nothing after it changes the status, the ids or the error.
 * - An `attempt` makes the contact `in_doubt` until its outcome arrives.
 * - Ids once known are never forgotten (a later event without them keeps them).
 * - A `skipped` does not cover an `in_doubt`: a decision not to act says nothing about whether the
 *   earlier request reached the platform.
 * - A follow-up step once done stays done; one recorded as an attempt (or answered by nothing)
 *   stays in doubt until a definite outcome.
 */
export function applyEvent(state: Map<string, ContactState>, event: CheckpointEvent): void {
  if (event.t === 'header') return;
  let c = state.get(event.phone);
  if (!c) {
    c = { phone: event.phone, status: 'pending', attempts: 0, followups: {} };
    state.set(event.phone, c);
  }
  c.updatedAt = event.at;
  const sent = c.status === 'sent';

  switch (event.t) {
    case 'attempt':
      c.attempts += 1;
      if (event.line !== undefined) c.line = event.line;
      if (sent) return;
      if (event.conversation_id !== undefined) c.conversationId = event.conversation_id;
      c.status = 'in_doubt';
      c.via = event.via;
      c.action = event.action;
      c.error = NO_ANSWER;
      delete c.httpStatus;
      delete c.retryable;
      return;

    case 'sent':
      if (sent) return;
      c.status = 'sent';
      c.via = event.via;
      c.action = event.action;
      c.conversationId = event.conversation_id;
      c.clientId = event.client_id;
      c.messageId = event.message_id;
      c.sentAt = event.at;
      if (event.media_left_out !== undefined) c.mediaLeftOut = event.media_left_out;
      if (event.media_owed !== undefined) c.mediaOwed = event.media_owed;
      delete c.error;
      delete c.httpStatus;
      delete c.retryable;
      return;

    case 'failed':
      if (sent) return;
      c.status = 'failed';
      c.via = event.via;
      c.action = event.action;
      keepIds(c, event.conversation_id, event.client_id);
      c.httpStatus = event.status;
      c.retryable = event.retryable;
      c.error = event.error;
      return;

    case 'in_doubt':
      if (sent) return;
      c.status = 'in_doubt';
      c.via = event.via;
      c.action = event.action;
      keepIds(c, event.conversation_id, event.client_id);
      c.error = event.error;
      delete c.httpStatus;
      delete c.retryable;
      return;

    case 'skipped':
      if (event.line !== undefined) c.line = event.line;
      if (sent || c.status === 'in_doubt') return;
      c.status = 'skipped';
      c.error = event.reason;
      delete c.httpStatus;
      delete c.retryable;
      return;

    case 'followup':
      recordFollowup(c, event.step, event.ok, event.error, event.attempt === true || event.in_doubt === true);
      return;

    default: {
      const unknown: never = event;
      throw new Error(`unknown checkpoint event ${JSON.stringify(unknown)}`);
    }
  }
}

function keepIds(c: ContactState, conversationId?: string, clientId?: string): void {
  if (conversationId !== undefined) c.conversationId = conversationId;
  if (clientId !== undefined) c.clientId = clientId;
}

function recordFollowup(c: ContactState, step: string, ok: boolean, error: string | undefined, inDoubt: boolean): void {
  const done = c.followups[step] === true || ok;
  if (!done && inDoubt) {
    // An attempt (until its outcome) or an answerless request: it may have been delivered.
    (c.followupsInDoubt ??= {})[step] = true;
    if (c.followups[step] === undefined) c.followups[step] = false;
    if (error !== undefined) (c.followupErrors ??= {})[step] = error;
    return;
  }
  if (c.followupsInDoubt) {
    delete c.followupsInDoubt[step];
    if (Object.keys(c.followupsInDoubt).length === 0) delete c.followupsInDoubt;
  }
  c.followups[step] = done;
  if (done) {
    if (c.followupErrors) {
      delete c.followupErrors[step];
      if (Object.keys(c.followupErrors).length === 0) delete c.followupErrors;
    }
  } else if (error !== undefined) {
    (c.followupErrors ??= {})[step] = error;
  }
}
