import { describe, expect, it } from 'vitest';
import { NO_TRIES, nextStep, ROWS, type StepPlan } from '../../src/run/next-step.js';
import type { Outcome } from '../../src/run/index.js';
import { MAX_RATE_LIMITED } from '../../src/run/context.js';

const plan: StepPlan = { hasConversation: true, canFallBackToTemplate: false, templatesAllowed: true, attempts: 3, stopped: false, marketingLimits: 0 };
const provider = (code: number, cls: NonNullable<Extract<Outcome, { kind: 'send_failed' }>['provider']>['class']): Outcome => ({
  kind: 'send_failed',
  httpStatus: 502,
  conversationId: '7',
  error: `502: (#${code}) refused`,
  provider: { code, class: cls },
});

describe('the send table (nextStep)', () => {
  it('waits out a 429 for everyone and sends again, then gives up (retryable) after MAX_RATE_LIMITED in a row', () => {
    const first = nextStep({ kind: 'rate_limited', retryAfterMs: 2000, error: '429: slow' }, NO_TRIES, plan);
    expect(first).toMatchObject({ row: 'rate_limited', effect: { kind: 'pause_all', retryAfterMs: 2000, consecutive: 1 }, then: { kind: 'again' } });
    expect(first.note).toEqual({ kind: 'failed', status: 429, retryable: true, error: '429: slow' });
    const last = nextStep({ kind: 'rate_limited', error: '429' }, { ...NO_TRIES, limited: MAX_RATE_LIMITED }, plan);
    expect(last.effect).toBeUndefined();
    expect(last.then).toEqual({ kind: 'failed', error: '429', retryable: true });
  });

  it('starts the count of 429s in a row again after any other answer', () => {
    const step = nextStep({ kind: 'not_sent', error: 'ECONNREFUSED' }, { ...NO_TRIES, limited: 5 }, plan);
    expect(step.tries.limited).toBe(0);
  });

  it('retries a 502 on the conversation with backoff, switching text to the template on wba/whatsapp', () => {
    const step = nextStep({ kind: 'send_failed', httpStatus: 502, conversationId: '7', error: '502: x' }, NO_TRIES, plan);
    expect(step).toMatchObject({ row: 'transient', tries: { retries: 1 }, then: { kind: 'again', wait: { kind: 'backoff', attempt: 1 }, template: true } });
    const ww = nextStep({ kind: 'send_failed', httpStatus: 502, conversationId: '7', error: '502: x' }, NO_TRIES, { ...plan, templatesAllowed: false });
    expect(ww.then).not.toHaveProperty('template');
  });

  it('fails a 502 for resume once retry.attempts are spent or the run stopped', () => {
    const o: Outcome = { kind: 'send_failed', httpStatus: 502, conversationId: '7', error: '502: x' };
    expect(nextStep(o, { ...NO_TRIES, retries: 3 }, plan).then).toEqual({ kind: 'failed', error: '502: x', retryable: true });
    expect(nextStep(o, NO_TRIES, { ...plan, stopped: true }).then).toEqual({ kind: 'failed', error: '502: x', retryable: true });
  });

  it('leaves a 502 without a conversation id in doubt, never starting a second conversation', () => {
    const step = nextStep({ kind: 'send_failed', httpStatus: 502, error: '502: x' }, NO_TRIES, { ...plan, hasConversation: false });
    expect(step.row).toBe('lost_conversation');
    expect(step.then.kind).toBe('in_doubt');
    expect(step.note.kind).toBe('in_doubt');
  });

  it('fails a refused request for good and a refused token for resume, stopping the run', () => {
    expect(nextStep({ kind: 'refused', httpStatus: 422, error: '422' }, NO_TRIES, plan).then).toEqual({ kind: 'failed', error: '422', retryable: false });
    const auth = nextStep({ kind: 'auth', httpStatus: 401, error: '401' }, NO_TRIES, plan);
    expect(auth.effect).toEqual({ kind: 'auth_refused', error: '401' });
    expect(auth.then).toEqual({ kind: 'failed', error: '401', retryable: true });
  });

  it('pauses everyone on a throughput refusal and sends again on the conversation', () => {
    const step = nextStep(provider(130429, 'throughput'), NO_TRIES, plan);
    expect(step).toMatchObject({ row: 'provider_throughput', providerClass: 'throughput', effect: { kind: 'pause_all', consecutive: 1 }, then: { kind: 'again' } });
    expect(step.note).toMatchObject({ kind: 'failed', retryable: true, provider: { code: 130429, class: 'throughput' } });
  });

  it('waits for this contact only on a pair-rate refusal, spending a retry', () => {
    const step = nextStep(provider(131056, 'pair_rate'), NO_TRIES, plan);
    expect(step).toMatchObject({ tries: { retries: 1 }, then: { kind: 'again', wait: { kind: 'pair_rate', attempt: 1 } } });
    expect(step.effect).toBeUndefined();
    expect(nextStep(provider(131056, 'pair_rate'), { ...NO_TRIES, retries: 3 }, plan).then).toMatchObject({ kind: 'failed', retryable: true });
  });

  it('sends the template after a closed window only when the text has one to fall back on', () => {
    expect(nextStep(provider(131047, 'window_closed'), NO_TRIES, { ...plan, canFallBackToTemplate: true }).then).toMatchObject({ kind: 'again', template: true });
    expect(nextStep(provider(131047, 'window_closed'), NO_TRIES, plan).then).toMatchObject({ kind: 'failed', retryable: false });
  });

  it('suppresses the phone before recording an opt-out, and fails it for good', () => {
    const step = nextStep(provider(131050, 'opted_out'), NO_TRIES, plan);
    expect(step.effect?.kind).toBe('suppress');
    expect(step.then).toMatchObject({ kind: 'failed', retryable: false });
  });

  it('defers a marketing-limit refusal, doubling with the earlier ones', () => {
    expect(nextStep(provider(131049, 'marketing_limit'), NO_TRIES, { ...plan, marketingLimits: 2 }).then).toEqual({ kind: 'deferred', repeats: 2 });
  });

  it('stops the run on a template or account refusal, with the fix in the sentence', () => {
    const t = nextStep(provider(132015, 'template'), NO_TRIES, { ...plan, template: { name: 'promo', language: 'es_MX' } });
    expect(t.effect).toMatchObject({ kind: 'stop_run', reason: 'provider_template' });
    expect(t.effect?.kind === 'stop_run' && t.effect.message).toContain('promo (es_MX)');
    const a = nextStep(provider(131048, 'account'), NO_TRIES, plan);
    expect(a.effect).toMatchObject({ kind: 'stop_run', reason: 'provider_account' });
    expect(a.then).toMatchObject({ kind: 'failed', retryable: true });
  });

  it('drains a number in trouble in a pool with other numbers live, and sends the contact again from another', () => {
    const step = nextStep(provider(368, 'account'), NO_TRIES, { ...plan, otherNumbersLive: true });
    expect(step.row).toBe('provider_drain');
    expect(step.effect).toEqual({ kind: 'drain', code: 368, error: '502: (#368) refused' });
    expect(step.then.kind).toBe('again');
    // The last number of the pool: the run stops as for one number.
    expect(nextStep(provider(368, 'account'), NO_TRIES, { ...plan, otherNumbersLive: false }).row).toBe('provider_account');
  });

  it('drains a pool number whose throughput refusals go on past MAX_RATE_LIMITED, instead of failing the contact', () => {
    const tries = { ...NO_TRIES, throughput: MAX_RATE_LIMITED };
    expect(nextStep(provider(130429, 'throughput'), tries, { ...plan, otherNumbersLive: true })).toMatchObject({ effect: { kind: 'drain', code: 130429 }, then: { kind: 'again' } });
    expect(nextStep(provider(130429, 'throughput'), tries, plan).then).toMatchObject({ kind: 'failed', retryable: true });
  });

  it('leaves an answer with no known outcome in doubt', () => {
    expect(nextStep({ kind: 'in_doubt', httpStatus: 0, error: 'socket hang up' }, NO_TRIES, plan).then).toEqual({ kind: 'in_doubt', error: 'socket hang up' });
  });

  it('is one ordered table: the provider rows come before the HTTP ones', () => {
    const names = ROWS.map((r) => r.name);
    expect(names.indexOf('provider_account')).toBeLessThan(names.indexOf('transient'));
    expect(names[0]).toBe('rate_limited');
  });
});
