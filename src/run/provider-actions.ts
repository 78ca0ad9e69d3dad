import { MARKETING_LIMIT_REASON, type ActionKind, type Via } from '../checkpoint/index.js';
import type { Contact } from '../contacts/index.js';
import { isoAt, MAX_RATE_LIMITED, type SendContext } from './context.js';
import type { ProviderRefusal } from './outcome.js';
import {
  accountStopMessage,
  marketingLimitNotBefore,
  pairRateWaitMs,
  providerClassInfo,
  templateStopMessage,
} from './provider-classes.js';
import { rateLimitWaitMs } from './retry-policy.js';

/**
 * What the run does about one send the provider refused with a known code, class by class
 * (run/provider-classes.ts): record the refusal with its code and class, then wait, switch to the
 * template, defer, suppress, stop the run, or give up. The HTTP outcome no longer decides.
 */

/** One refused send, as deliver saw it. */
export interface Refusal {
  contact: Contact;
  via: Via;
  action: ActionKind;
  /** The conversation the next send would go to (known, or given by this 502). */
  conversationId?: string;
  clientId?: string;
  httpStatus: number;
  /** The outcome's text (`502: (#131026) Message undeliverable.`). */
  error: string;
  provider: ProviderRefusal;
  /** The template this send carried, for the stop sentence of a template refusal. */
  template?: { name: string; language: string };
  /** Free text with the job's template to fall back on (wba/whatsapp). */
  canFallBackToTemplate: boolean;
  /** Earlier marketing-limit deferrals of this contact (from its state). */
  marketingLimits: number;
}

/** The contact's counters across the sends of one deliver. */
export interface Tries {
  /** Retries spent of `retry.attempts` (502s without a code, pair-rate waits). */
  retries: number;
  /** Throughput refusals met (like 429s, they do not spend `retry.attempts`). */
  throughput: number;
}

/** What deliver does next. */
export type Next =
  /** Send again on the same conversation (the wait is done); `template`: send the job's template instead of the text. */
  | { kind: 'again'; template?: true }
  | { kind: 'failed'; error: string; retryable: boolean }
  | { kind: 'deferred'; reason: string; notBefore: number };

/** Acts on a refusal whose class is not `other` (the caller keeps today's behaviour for that one). */
export async function actOnRefusal(ctx: SendContext, r: Refusal, tries: Tries): Promise<Next> {
  const { code, class: cls } = r.provider;
  const error = `${providerClassInfo(cls).label} (${code}): ${r.error}`;
  const record = (retryable: boolean) =>
    ctx.record({
      t: 'failed',
      phone: r.contact.phone,
      via: r.via,
      action: r.action,
      status: r.httpStatus,
      retryable,
      ...(r.conversationId !== undefined && { conversation_id: r.conversationId }),
      ...(r.clientId !== undefined && { client_id: r.clientId }),
      error,
      code,
      error_class: cls,
      at: isoAt(ctx.clock()),
    });
  const fail = async (retryable: boolean): Promise<Next> => {
    await record(retryable);
    return { kind: 'failed', error, retryable };
  };
  // Sending again needs the conversation (never a second start-whatsapp) and a run still going.
  const mayGoAgain = () => r.conversationId !== undefined && !ctx.stopSignal.aborted;

  switch (cls) {
    case 'throughput': {
      // Like a 429: everyone pauses and the limiter slows down, then this send goes again.
      tries.throughput += 1;
      ctx.limiter.backOff(rateLimitWaitMs(undefined, tries.throughput, ctx.random()));
      await record(true);
      return tries.throughput <= MAX_RATE_LIMITED && mayGoAgain() ? { kind: 'again' } : { kind: 'failed', error, retryable: true };
    }
    case 'pair_rate': {
      // This contact only: it waits, the other workers go on.
      await record(true);
      if (tries.retries >= ctx.job.retry.attempts || !mayGoAgain()) return { kind: 'failed', error, retryable: true };
      tries.retries += 1;
      await ctx.sleep(pairRateWaitMs(tries.retries, ctx.random()), ctx.stopSignal);
      return mayGoAgain() ? { kind: 'again' } : { kind: 'failed', error, retryable: true };
    }
    case 'window_closed':
      if (!r.canFallBackToTemplate) return fail(false);
      await record(true);
      return mayGoAgain() ? { kind: 'again', template: true } : { kind: 'failed', error, retryable: true };
    case 'undeliverable':
    case 'bad_request':
      return fail(false);
    case 'opted_out':
      // On the suppression list before the failure is written: a crash between the two never loses the opt-out.
      await ctx.onOptedOut(r.contact.phone, `the provider refused with ${code}: ${providerClassInfo(cls).label}`);
      return fail(false);
    case 'marketing_limit': {
      // The refusal first (it ends the attempt), then the deferral; never sent again in this run.
      await record(true);
      const now = ctx.clock();
      const notBefore = marketingLimitNotBefore(now, ctx.job.retry.marketing_limit_hours, r.marketingLimits);
      await ctx.record({
        t: 'deferred',
        phone: r.contact.phone,
        reason: MARKETING_LIMIT_REASON,
        not_before: isoAt(notBefore),
        line: r.contact.line,
        code,
        error_class: cls,
        at: isoAt(now),
      });
      return { kind: 'deferred', reason: MARKETING_LIMIT_REASON, notBefore };
    }
    // The run stops before the refusal is journaled, so no worker takes another contact meanwhile.
    case 'template': {
      const template = r.template ?? { name: 'of the job', language: 'unknown language' };
      ctx.onProviderStop('provider_template', templateStopMessage(code, template, r.error));
      return fail(true);
    }
    case 'account':
      ctx.onProviderStop('provider_account', accountStopMessage(code, r.error));
      return fail(true);
    case 'other':
      return fail(true);
    default: {
      const never: never = cls;
      return never;
    }
  }
}
