import type { ContactState } from '../checkpoint/index.js';
import { contactReject, type Contact } from '../contacts/index.js';
import { decide, heldReject } from '../plan/index.js';
import { Interrupted } from './call.js';
import { isoText } from '../time/iso.js';
import type { ContactResult, RetryMode } from './contact-result.js';
import { routeContact, type SendContext } from './context.js';
import { deliver } from './deliver.js';
import { owedMedia, runFollowups } from './followups.js';

/**
 * Decides whether an earlier state is taken up again at `now` (a deferred contact only from its
 * `notBefore` on). A skip is decided again: its cause lives in the list or the store (consent,
 * suppression, the window) and may be gone; the platform's verdicts are failures, not skips.
 */
export function shouldSend(prior: ContactState | undefined, mode: RetryMode, now?: number): boolean {
  if (!prior) return true;
  switch (prior.status) {
    case 'pending':
      return true;
    case 'deferred':
      // A start_at deferral is the job's own setting, decided again each run (the time may have moved or gone); a
      // daily_limit one too: room may have come back before the time it was given (a run that died gave its places back).
      return now === undefined || prior.reason === 'start_at' || prior.reason === 'daily_limit' || !(Date.parse(prior.notBefore) > now);
    case 'failed':
      return mode.retryFailed && prior.retryable;
    case 'in_doubt':
      return mode.retryInDoubt;
    case 'skipped':
      return true;
    case 'sent':
      return false;
    default: {
      const never: never = prior;
      return never;
    }
  }
}

/**
 * One contact, start to end: decide at send time, send (start-whatsapp, or the known conversation
 * after an earlier 502), retry 502s on the conversation, then the follow-ups. Every request is
 * journaled before it leaves and its outcome after.
 */
export async function sendContact(
  shared: SendContext,
  contact: Contact,
  prior: ContactState | undefined,
  mode: RetryMode,
): Promise<ContactResult> {
  // In a pool, everything of this contact goes through its own number (its channel and its limiter).
  const routed = shared.pool ? routeContact(shared, contact.phone) : { ctx: shared, moved: false };
  if (routed === undefined) return prior?.status === 'sent' ? { kind: 'untouched', state: prior, warnings: [] } : { kind: 'interrupted' };
  const { ctx, moved } = routed;
  if (prior?.status === 'sent') {
    // Its number is drained: nothing more goes out on its conversation in this run.
    if (moved) return { kind: 'untouched', state: prior, warnings: [] };
    const warnings = await runFollowups(ctx, {
      contact,
      conversationId: prior.conversationId,
      ...(prior.clientId !== undefined && { clientId: prior.clientId }),
      media: owedMedia(ctx.job, prior, contact),
      done: prior.followups,
      ...(prior.followupsInDoubt ? { inDoubt: prior.followupsInDoubt } : {}),
      retryInDoubt: mode.retryInDoubt,
    });
    return { kind: 'untouched', state: prior, warnings };
  }
  if (prior && !shouldSend(prior, mode, ctx.clock())) return { kind: 'untouched', state: prior, warnings: [] };
  if (ctx.stopSignal.aborted) return { kind: 'interrupted' };

  const context = ctx.planContext(contact, ctx.clock());
  // A contact the job already holds is skipped, not rejected, when its message cannot be filled any more.
  const action = heldReject(decide(contact, ctx.channel, ctx.job, context), prior !== undefined);
  ctx.onDecided?.(contact, action, context);
  switch (action.kind) {
    case 'reject':
      return { kind: 'rejected', reject: contactReject(contact, action.reason, action.detail) };
    case 'skip':
      // Skipped again for the same reason: nothing new to record.
      if (prior?.status === 'skipped' && prior.reason === action.reason && prior.detail === action.detail) return { kind: 'skipped', reason: action.reason };
      await ctx.record({ t: 'skipped', phone: contact.phone, reason: action.reason, ...(action.detail !== undefined && { detail: action.detail }), line: contact.line, at: isoText(ctx.clock()) });
      return { kind: 'skipped', reason: action.reason };
    case 'defer':
      // Deferred again to the same time for the same reason: nothing new to record.
      if (prior?.status === 'deferred' && prior.reason === action.reason && Date.parse(prior.notBefore) === action.notBefore) {
        return { kind: 'deferred', reason: action.reason, notBefore: action.notBefore };
      }
      await ctx.record({
        t: 'deferred',
        phone: contact.phone,
        reason: action.reason,
        not_before: isoText(action.notBefore),
        ...(action.zone !== undefined && { zone: action.zone }),
        line: contact.line,
        at: isoText(ctx.clock()),
      });
      return { kind: 'deferred', reason: action.reason, notBefore: action.notBefore };
    case 'template':
    case 'text':
      try {
        return await deliver(ctx, contact, prior, action, mode, { afresh: moved });
      } catch (err) {
        if (err instanceof Interrupted) return { kind: 'interrupted' };
        throw err;
      }
    default: {
      const never: never = action;
      return never;
    }
  }
}
