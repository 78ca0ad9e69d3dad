import type { ActionKind, ContactState, Via } from '../checkpoint/index.js';
import { contactReject, type Contact, type Reject } from '../contacts/index.js';
import { decide, type Action } from '../plan/index.js';
import { callPlatform, Interrupted } from './call.js';
import { isoAt, type SendContext } from './context.js';
import { owedMedia, runFollowups } from './followups.js';
import { providerRefusalOf } from './outcome.js';
import { actOnRefusal, type Tries } from './provider-actions.js';
import type { ProviderClass } from './provider-classes.js';
import { backoffMs } from './retry-policy.js';
import { contentOf, planOf, requestFor, switchToTemplate } from './send-plan.js';

/** What became of one contact in this run. */
export type ContactResult =
  | { kind: 'sent'; warnings: string[] }
  /** `providerClass` when the provider's refusal decided it (run/provider-classes.ts). */
  | { kind: 'failed'; error: string; retryable: boolean; providerClass?: ProviderClass }
  | { kind: 'in_doubt'; error: string }
  | { kind: 'skipped'; reason: string }
  | { kind: 'deferred'; reason: string; notBefore: number; providerClass?: ProviderClass }
  | { kind: 'rejected'; reject: Reject }
  /** Already settled by an earlier run (or left for `resume`): nothing sent now. */
  | { kind: 'untouched'; state: ContactState; warnings: string[] }
  /** The run stopped before anything was sent for it: still pending. */
  | { kind: 'interrupted' };

/** Which earlier outcomes this command takes up again. */
export interface RetryMode {
  /** `resume`: retry failed contacts whose failure is retryable. */
  retryFailed: boolean;
  /** `resume --retry-in-doubt`: also resend contacts in doubt (the user checked them). */
  retryInDoubt: boolean;
}

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
      // A start_at deferral is the job's own setting, decided again each run (the time may have moved or gone).
      return now === undefined || prior.reason === 'start_at' || !(Date.parse(prior.notBefore) > now);
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
  ctx: SendContext,
  contact: Contact,
  prior: ContactState | undefined,
  mode: RetryMode,
): Promise<ContactResult> {
  if (prior?.status === 'sent') {
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
  const action = decide(contact, ctx.channel, ctx.job, context);
  ctx.onDecided?.(contact, action, context);
  switch (action.kind) {
    case 'reject':
      return { kind: 'rejected', reject: contactReject(contact, action.reason, action.detail) };
    case 'skip':
      // Skipped again for the same reason: nothing new to record.
      if (prior?.status === 'skipped' && prior.reason === action.reason) return { kind: 'skipped', reason: action.reason };
      await ctx.record({ t: 'skipped', phone: contact.phone, reason: action.reason, line: contact.line, at: isoAt(ctx.clock()) });
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
        not_before: isoAt(action.notBefore),
        ...(action.zone !== undefined && { zone: action.zone }),
        line: contact.line,
        at: isoAt(ctx.clock()),
      });
      return { kind: 'deferred', reason: action.reason, notBefore: action.notBefore };
    case 'template':
    case 'text':
      try {
        return await deliver(ctx, contact, prior, action, mode);
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

async function deliver(
  ctx: SendContext,
  contact: Contact,
  prior: ContactState | undefined,
  action: Extract<Action, { kind: 'template' | 'text' }>,
  mode: RetryMode,
): Promise<ContactResult> {
  const { phone } = contact;
  const plan = planOf(action);
  let conversationId = prior?.conversationId;
  let clientId = prior?.clientId;
  const tries: Tries = { retries: 0, throughput: 0 };

  for (;;) {
    const via: Via = conversationId === undefined ? 'start' : plan.payload.kind === 'template' ? 'template' : 'message';
    const kind: ActionKind = plan.payload.kind;
    const ids = { ...(conversationId ? { conversation_id: conversationId } : {}), ...(clientId ? { client_id: clientId } : {}) };
    const result = await callPlatform(ctx, requestFor(ctx, contact, plan, conversationId), {
      before: () =>
        ctx.record({
          t: 'attempt',
          phone,
          via,
          action: kind,
          line: contact.line,
          ...(conversationId ? { conversation_id: conversationId } : {}),
          ...(action.variant !== undefined && { variant: action.variant }),
          content: contentOf(plan.payload),
          at: isoAt(ctx.clock()),
        }),
      onRateLimited: (error) =>
        ctx.record({ t: 'failed', phone, via, action: kind, status: 429, retryable: true, ...ids, error, at: isoAt(ctx.clock()) }),
    });

    if (result.ok) {
      const sent = result.value;
      conversationId = sent.conversationId ?? conversationId;
      clientId = sent.clientId ?? clientId;
      if (conversationId === undefined) {
        // An accepted start-whatsapp always names its conversation (the client refuses one that does not): kept safe all the same.
        const error = 'the platform accepted the message but named no conversation';
        await ctx.record({ t: 'in_doubt', phone, via, action: kind, ...(clientId ? { client_id: clientId } : {}), error, at: isoAt(ctx.clock()) });
        return { kind: 'in_doubt', error };
      }
      // A text that went through the messages endpoint could not carry inline media: it follows.
      const media = plan.media ?? (via !== 'start' && plan.payload.kind === 'text' ? plan.payload.inlineMedia : undefined);
      await ctx.record({
        t: 'sent',
        phone,
        via,
        action: kind,
        conversation_id: conversationId,
        ...(clientId !== undefined && { client_id: clientId }),
        message_id: String(sent.messageId),
        ...(plan.mediaLeftOut ? { media_left_out: true } : {}),
        ...(media ? { media_owed: true } : {}),
        ...(action.variant !== undefined && { variant: action.variant }),
        at: isoAt(ctx.clock()),
      });
      const warnings = await runFollowups(ctx, {
        contact,
        conversationId,
        ...(clientId !== undefined && { clientId }),
        ...(media ? { media } : {}),
        done: {},
        retryInDoubt: mode.retryInDoubt,
      });
      return { kind: 'sent', warnings };
    }

    const { outcome } = result;
    const refusal = providerRefusalOf(outcome);
    if (refusal) {
      if (outcome.kind === 'send_failed') {
        conversationId ??= outcome.conversationId;
        clientId ??= outcome.clientId;
      }
      // The provider's code decides (run/provider-actions.ts), not the HTTP status.
      const payload = plan.payload;
      const next = await actOnRefusal(
        ctx,
        {
          contact,
          via,
          action: kind,
          ...(conversationId !== undefined && { conversationId }),
          ...(clientId !== undefined && { clientId }),
          httpStatus: refusal.httpStatus,
          error: outcome.error,
          provider: { code: refusal.code, class: refusal.class },
          ...(payload.kind === 'template' && { template: payload.template }),
          canFallBackToTemplate: payload.kind === 'text' && plan.fallback !== undefined && ctx.channel.type !== 'ww',
          marketingLimits: prior?.marketingLimits ?? 0,
        },
        tries,
      );
      if (next.kind !== 'again') return { ...next, providerClass: refusal.class };
      if (next.template) switchToTemplate(plan);
      continue;
    }
    switch (outcome.kind) {
      case 'send_failed':
      case 'not_sent': {
        if (outcome.kind === 'send_failed') {
          conversationId ??= outcome.conversationId;
          clientId ??= outcome.clientId;
          if (conversationId === undefined) {
            // The platform's 502 always carries the ids (A3): one without them may have been delivered.
            const error = `${outcome.error} (no conversation id came back: the message may have gone out)`;
            await ctx.record({ t: 'in_doubt', phone, via, action: kind, ...(clientId ? { client_id: clientId } : {}), error, at: isoAt(ctx.clock()) });
            return { kind: 'in_doubt', error };
          }
        }
        const status = outcome.kind === 'send_failed' ? outcome.httpStatus : 0;
        const canRetry = tries.retries < ctx.job.retry.attempts;
        await ctx.record({
          t: 'failed',
          phone,
          via,
          action: kind,
          status,
          retryable: true,
          ...(conversationId ? { conversation_id: conversationId } : {}),
          ...(clientId ? { client_id: clientId } : {}),
          error: outcome.error,
          at: isoAt(ctx.clock()),
        });
        if (!canRetry || ctx.stopSignal.aborted) return { kind: 'failed', error: outcome.error, retryable: true };
        // Free text refused on wba/whatsapp: the window had closed after all; the template goes instead.
        if (outcome.kind === 'send_failed' && ctx.channel.type !== 'ww') switchToTemplate(plan);
        tries.retries += 1;
        await ctx.sleep(backoffMs(tries.retries, ctx.job.retry.backoff_ms, ctx.random()), ctx.stopSignal);
        if (ctx.stopSignal.aborted) return { kind: 'failed', error: outcome.error, retryable: true };
        continue;
      }
      case 'refused':
      case 'auth':
      case 'rate_limited': {
        const retryable = outcome.kind !== 'refused';
        const status = outcome.kind === 'rate_limited' ? 429 : outcome.httpStatus;
        if (outcome.kind !== 'rate_limited') {
          await ctx.record({ t: 'failed', phone, via, action: kind, status, retryable, ...ids, error: outcome.error, at: isoAt(ctx.clock()) });
        }
        if (outcome.kind === 'auth') ctx.onAuthRefused(outcome.error);
        return { kind: 'failed', error: outcome.error, retryable };
      }
      case 'in_doubt':
        await ctx.record({ t: 'in_doubt', phone, via, action: kind, ...ids, error: outcome.error, at: isoAt(ctx.clock()) });
        return { kind: 'in_doubt', error: outcome.error };
      default: {
        const never: never = outcome;
        return never;
      }
    }
  }
}
