import type { FollowupStep, SentState } from '../checkpoint/index.js';
import type { Contact } from '../contacts/index.js';
import type { Job } from '../job/index.js';
import { chooseVariant, renderCustomFields, type Media } from '../plan/index.js';
import { callPlatform, Interrupted } from './call.js';
import { isoText } from '../time/iso.js';
import type { SendContext } from './context.js';
import { mediaBody } from './requests.js';

/** A sent contact's conversation, and what still has to follow its first message. */
export interface SentContact {
  contact: Contact;
  conversationId: string;
  /** Unknown only when the platform never gave it (a 502 with a conversation id only): the CRM steps cannot run. */
  clientId?: string;
  /** Media still to send as its own message (wba/whatsapp with the window open, or after a retry on the conversation). */
  media?: Media;
  /** Steps already done (from the checkpoint). */
  done: Record<string, boolean>;
  /** Steps in doubt (sent, no answer): repeated only when `retryInDoubt`. */
  inDoubt?: Record<string, true>;
  retryInDoubt: boolean;
}

/**
 * The steps that follow a first message: the media message, then the job's after_send actions.
 * A failure here is a warning on a sent contact, never a resend of the message; `resume` repeats
 * only the steps not done.
 */
export function followupSteps(job: Job, media: Media | undefined): FollowupStep[] {
  const steps: FollowupStep[] = [];
  if (media) steps.push('media');
  for (const tag of job.after_send.tags) steps.push(`tag:${tag}`);
  if (Object.keys(job.after_send.custom_fields).length > 0) steps.push('custom_fields');
  return steps;
}

/**
 * The media a sent contact still owes, read back from its checkpoint: only when the send recorded
 * one as owed (not when it was left out, went inline, or the job had none at the time). It is the
 * media of the contact's own message (its variant's).
 */
export function owedMedia(job: Job, state: SentState, contact: Contact): Media | undefined {
  return state.mediaOwed ? chooseVariant(contact, job.message).message.media : undefined;
}

/** Whether `runFollowups` has a step to take for this sent contact (pure): one not done, and not left in doubt. */
export function followupsDue(job: Job, state: SentState, contact: Contact, retryInDoubt: boolean): boolean {
  return stepsOwed(job, state, contact, retryInDoubt) > 0;
}

/** How many steps `runFollowups` would take for this sent contact (pure): those not done, and not left in doubt. */
export function stepsOwed(job: Job, state: SentState, contact: Contact, retryInDoubt: boolean): number {
  return followupSteps(job, owedMedia(job, state, contact)).filter((step) => !state.followups[step] && !(state.followupsInDoubt?.[step] && !retryInDoubt)).length;
}

/**
 * Runs the steps not yet done; returns one warning per step that failed. The media step sends a
 * message, so like a first message it is journaled before it leaves, and one that got no answer is
 * in doubt (A32). Tags and custom fields are idempotent (A15, A17) and simply repeated when not done.
 */
export async function runFollowups(ctx: SendContext, sent: SentContact): Promise<string[]> {
  const warnings: string[] = [];
  const { contact, conversationId, clientId } = sent;
  const { phone } = contact;
  for (const step of followupSteps(ctx.job, sent.media)) {
    if (sent.done[step]) continue;
    if (sent.inDoubt?.[step] && !sent.retryInDoubt) continue;
    if (ctx.stopSignal.aborted) break;
    const call = stepCall(ctx, sent, step);
    if (typeof call === 'string') {
      warnings.push(await note(ctx, phone, step, call));
      continue;
    }
    const journaled = step === 'media';
    let result;
    try {
      result = await callPlatform(ctx, call, {
        ...(journaled ? { before: () => ctx.record({ t: 'followup', phone, step, ok: false, attempt: true, at: isoText(ctx.clock()) }) } : {}),
      });
    } catch (err) {
      if (err instanceof Interrupted) break;
      throw err;
    }
    if (result.ok) {
      await ctx.record({ t: 'followup', phone, step, ok: true, at: isoText(ctx.clock()) });
      continue;
    }
    const { outcome } = result;
    if (outcome.kind === 'auth') ctx.onAuthRefused(outcome.error);
    // The person stopped marketing messages (131050): suppressed like a refused first message, before the failure is written.
    if ((outcome.kind === 'send_failed' || outcome.kind === 'refused') && outcome.provider?.class === 'opted_out') {
      await ctx.onOptedOut(phone, `the provider refused the ${step} step with ${outcome.provider.code}: the person stopped marketing messages`);
    }
    const error = `${step} for conversation ${conversationId} (client ${clientId ?? 'unknown'}): ${outcome.error}`;
    warnings.push(await note(ctx, phone, step, error, journaled && outcome.kind === 'in_doubt'));
    if (outcome.kind === 'auth') break;
  }
  return warnings;
}

function stepCall(
  ctx: SendContext,
  sent: SentContact,
  step: FollowupStep,
): ((signal: AbortSignal) => Promise<unknown>) | string {
  const { api, job } = ctx;
  const { media, clientId } = sent;
  if (step === 'media') {
    if (!media) return 'media: the job has no media any more';
    const stop = mayNotMessage(ctx, sent.contact);
    if (stop) return `media: not sent, ${stop}`;
    return (signal) => api.sendMessage(sent.conversationId, mediaBody(media), { signal });
  }
  if (clientId === undefined) {
    return `${step}: the platform gave no client id for conversation ${sent.conversationId} (its 502 carried only the conversation id); set it by hand on the platform`;
  }
  if (step === 'custom_fields') {
    const rendered = renderCustomFields(sent.contact, job);
    if (!rendered.ok) return `after_send.custom_fields: the contact has no value for {{${rendered.missing}}}`;
    return (signal) => api.setCustomFieldValues(job.company_id, 'client', clientId, rendered.values, { signal });
  }
  const tag = step.slice('tag:'.length);
  return (signal) => api.addClientTag(clientId, tag, { signal });
}

/** Why this contact may not get another message now (the suppression list, missing consent), if so: re-read right before the media step. */
function mayNotMessage(ctx: SendContext, contact: Contact): string | undefined {
  const context = ctx.planContext(contact, ctx.clock());
  if (context.suppressed) return `the phone is on the suppression list (${context.suppressed.source}: ${context.suppressed.reason})`;
  if (ctx.job.require_opt_in && context.optedIn !== true) return 'the contact has no clear opt-in (require_opt_in)';
  return undefined;
}

async function note(ctx: SendContext, phone: string, step: FollowupStep, error: string, inDoubt = false): Promise<string> {
  await ctx.record({ t: 'followup', phone, step, ok: false, ...(inDoubt ? { in_doubt: true } : {}), error, at: isoText(ctx.clock()) });
  return error;
}
