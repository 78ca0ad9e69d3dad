import type { ActionKind, CheckpointEvent, ContactState, Via } from '../checkpoint/index.js';
import { MARKETING_LIMIT_REASON } from '../checkpoint/index.js';
import type { Contact } from '../contacts/index.js';
import type { Action } from '../plan/index.js';
import { callOnce, Interrupted } from './call.js';
import { isoText } from '../time/iso.js';
import { routeContact, type SendContext } from './context.js';
import { runFollowups } from './followups.js';
import { NO_TRIES, nextStep, type Note, type Step } from './next-step.js';
import { marketingLimitNotBefore } from './provider-classes.js';
import type { ContactResult, RetryMode } from './contact-result.js';
import { contentOf, planOf, requestFor, switchToTemplate, type Plan } from './send-plan.js';
import { applyEffect, waitMs } from './step-effects.js';

/**
 * The send loop of one contact's first message: record the attempt, call, and after an answer that is
 * not a success, do what the send table says (`nextStep`, run/next-step.ts): its effect, its record,
 * its wait, then send again or end. Every request is journaled before it leaves and its outcome after.
 */
export async function deliver(
  ctx: SendContext,
  contact: Contact,
  prior: ContactState | undefined,
  action: Extract<Action, { kind: 'template' | 'text' }>,
  mode: RetryMode,
  options: { afresh: boolean } = { afresh: false },
): Promise<ContactResult> {
  const { phone } = contact;
  const plan = planOf(action);
  // A contact moved off a drained number starts on its new number: its earlier conversation is on the old one.
  let conversationId = options.afresh ? undefined : prior?.conversationId;
  let clientId = options.afresh ? undefined : prior?.clientId;
  let tries = NO_TRIES;

  for (;;) {
    if (ctx.pool?.isDrained(ctx.channel.id)) {
      // Its number was drained meanwhile: nothing more goes from it; the contact moves to another number, afresh.
      const routed = routeContact(ctx, phone);
      if (routed === undefined) throw new Interrupted();
      ctx = routed.ctx;
      conversationId = undefined;
      clientId = undefined;
      // The person's window is the drained number's (the text was chosen for it): from the new number, the template.
      switchToTemplate(plan);
    }
    const via: Via = conversationId === undefined ? 'start' : plan.payload.kind === 'template' ? 'template' : 'message';
    const kind: ActionKind = plan.payload.kind;
    const result = await callOnce(ctx, requestFor(ctx, contact, plan, conversationId), () => ctx.record(attemptEvent(ctx, contact, plan, via, kind, conversationId, action.variant)));

    if (result.ok) {
      const sent = result.value;
      conversationId = sent.conversationId ?? conversationId;
      clientId = sent.clientId ?? clientId;
      if (conversationId === undefined) {
        // An accepted start-whatsapp always names its conversation (the client refuses one that does not): kept safe all the same.
        const error = 'the platform accepted the message but named no conversation';
        await ctx.record({ t: 'in_doubt', phone, via, action: kind, ...(clientId ? { client_id: clientId } : {}), error, at: isoText(ctx.clock()) });
        return { kind: 'in_doubt', error };
      }
      // A text that went through the messages endpoint could not carry inline media: it follows.
      const media = plan.media ?? (via !== 'start' && plan.payload.kind === 'text' ? plan.payload.inlineMedia : undefined);
      await ctx.record(sentEvent(ctx, phone, via, kind, conversationId, clientId, String(sent.messageId), Boolean(plan.mediaLeftOut), Boolean(media), action.variant));
      ctx.pool?.tally(ctx.channel.id, 'sent', ctx.clock());
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
    if (outcome.kind === 'send_failed') {
      conversationId ??= outcome.conversationId;
      clientId ??= outcome.clientId;
    }
    const payload = plan.payload;
    const step = nextStep(outcome, tries, {
      hasConversation: conversationId !== undefined,
      canFallBackToTemplate: payload.kind === 'text' && plan.fallback !== undefined && ctx.channel.type !== 'ww',
      templatesAllowed: ctx.channel.type !== 'ww',
      attempts: ctx.job.retry.attempts,
      stopped: ctx.stopSignal.aborted,
      marketingLimits: prior?.marketingLimits ?? 0,
      otherNumbersLive: ctx.pool !== undefined && ctx.pool.numbers.some((n) => n.channel.id !== ctx.channel.id && !ctx.pool?.isDrained(n.channel.id)),
      ...(payload.kind === 'template' && { template: payload.template }),
    });
    tries = step.tries;
    if (step.effect) await applyEffect(ctx, step.effect, phone);
    await writeNote(ctx, step.note, { phone, via, action: kind, conversationId, clientId });

    const then = step.then;
    const cls = step.providerClass !== undefined ? { providerClass: step.providerClass } : {};
    switch (then.kind) {
      case 'again':
        if (then.template) switchToTemplate(plan);
        if (then.wait) await ctx.sleep(waitMs(ctx, then.wait), ctx.stopSignal);
        if (then.orIfStopped && ctx.stopSignal.aborted) return { kind: 'failed', error: then.orIfStopped.error, retryable: true, ...cls };
        continue;
      case 'failed':
        ctx.pool?.tally(ctx.channel.id, 'failed');
        return { kind: 'failed', error: then.error, retryable: then.retryable, ...cls };
      case 'deferred':
        return defer(ctx, contact, step, then.repeats);
      case 'in_doubt':
        return { kind: 'in_doubt', error: then.error };
      default: {
        const never: never = then;
        return never;
      }
    }
  }
}

type AttemptEvent = Extract<CheckpointEvent, { t: 'attempt' }>;
type SentEvent = Extract<CheckpointEvent, { t: 'sent' }>;

/**
 * The journal's line before a request leaves, built field by field (one per request; the journal's
 * bytes depend on the key order): t, phone, via, action, line, then the conversation, variant and
 * number when there are, then the content and the time.
 */
function attemptEvent(ctx: SendContext, contact: Contact, plan: Plan, via: Via, kind: ActionKind, conversationId: string | undefined, variant: string | undefined): AttemptEvent {
  const e: AttemptEvent = { t: 'attempt', phone: contact.phone, via, action: kind, line: contact.line } as AttemptEvent;
  if (conversationId) e.conversation_id = conversationId;
  if (variant !== undefined) e.variant = variant;
  if (ctx.pool !== undefined) e.channel_id = ctx.channel.id;
  e.content = contentOf(plan.payload);
  e.at = isoText(ctx.clock());
  return e;
}

/** The journal's line of an accepted message, field by field in the journal's order (see attemptEvent). */
function sentEvent(
  ctx: SendContext,
  phone: string,
  via: Via,
  kind: ActionKind,
  conversationId: string,
  clientId: string | undefined,
  messageId: string,
  mediaLeftOut: boolean,
  mediaOwed: boolean,
  variant: string | undefined,
): SentEvent {
  const e = { t: 'sent', phone, via, action: kind, conversation_id: conversationId } as SentEvent;
  if (clientId !== undefined) e.client_id = clientId;
  e.message_id = messageId;
  if (mediaLeftOut) e.media_left_out = true;
  if (mediaOwed) e.media_owed = true;
  if (variant !== undefined) e.variant = variant;
  if (ctx.pool !== undefined) e.channel_id = ctx.channel.id;
  e.at = isoText(ctx.clock());
  return e;
}

interface Sending {
  phone: string;
  via: Via;
  action: ActionKind;
  conversationId: string | undefined;
  clientId: string | undefined;
}

/** The journal's line for a step's note. */
async function writeNote(ctx: SendContext, note: Note, s: Sending): Promise<void> {
  const { phone, via, action, conversationId, clientId } = s;
  switch (note.kind) {
    case 'none':
      return;
    case 'in_doubt':
      return ctx.record({ t: 'in_doubt', phone, via, action, ...ids(s), error: note.error, at: isoText(ctx.clock()) });
    case 'failed':
      if (note.provider === undefined) {
        return ctx.record({ t: 'failed', phone, via, action, status: note.status, retryable: note.retryable, ...ids(s), error: note.error, at: isoText(ctx.clock()) });
      }
      return ctx.record({
        t: 'failed',
        phone,
        via,
        action,
        status: note.status,
        retryable: note.retryable,
        ...(conversationId !== undefined && { conversation_id: conversationId }),
        ...(clientId !== undefined && { client_id: clientId }),
        error: note.error,
        code: note.provider.code,
        error_class: note.provider.class,
        at: isoText(ctx.clock()),
      });
    default: {
      const never: never = note;
      return never;
    }
  }
}

const ids = (s: Sending) => ({ ...(s.conversationId ? { conversation_id: s.conversationId } : {}), ...(s.clientId ? { client_id: s.clientId } : {}) });

/** The marketing limit: the deferral follows the refusal's record; never sent again in this run. */
async function defer(ctx: SendContext, contact: Contact, step: Step, repeats: number): Promise<ContactResult> {
  const now = ctx.clock();
  const notBefore = marketingLimitNotBefore(now, ctx.job.retry.marketing_limit_hours, repeats);
  const provider = step.note.kind === 'failed' ? step.note.provider : undefined;
  await ctx.record({
    t: 'deferred',
    phone: contact.phone,
    reason: MARKETING_LIMIT_REASON,
    not_before: isoText(notBefore),
    line: contact.line,
    ...(provider !== undefined && { code: provider.code, error_class: provider.class }),
    at: isoText(now),
  });
  return { kind: 'deferred', reason: MARKETING_LIMIT_REASON, notBefore, ...(step.providerClass !== undefined && { providerClass: step.providerClass }) };
}
