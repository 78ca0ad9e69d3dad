import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, errorFromResponse } from '../../src/api/index.js';
import type { ContactState, SentState } from '../../src/checkpoint/index.js';
import { backoffMs, classify, failureRatioExceeded, followupSteps, owedMedia, rateLimitWaitMs, shouldSend, type RunStats } from '../../src/run/index.js';
import { testContacts, testJob } from '../helpers/run.js';

const wire = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  errorFromResponse(status, body, headers, 'POST', '/chat/conversations/start-whatsapp');

describe('backoffMs', () => {
  it('doubles from the base delay, with jitter between half and the full delay, never below the base', () => {
    expect(backoffMs(1, 1000, 0)).toBe(1000);
    expect(backoffMs(1, 1000, 1)).toBe(1000);
    expect(backoffMs(3, 1000, 0)).toBe(2000);
    expect(backoffMs(3, 1000, 1)).toBe(4000);
    expect(backoffMs(4, 1000, 0.5)).toBe(6000);
  });

  it('is capped at one minute', () => {
    expect(backoffMs(30, 2000, 1)).toBe(60_000);
  });
});

describe('rateLimitWaitMs', () => {
  it("waits the platform's Retry-After when it gave one", () => {
    expect(rateLimitWaitMs(3000, 1, 0.5)).toBe(3000);
  });
  it('backs off exponentially from one second without it', () => {
    expect(rateLimitWaitMs(undefined, 1, 0)).toBe(1000);
    expect(rateLimitWaitMs(undefined, 3, 1)).toBe(4000);
  });
});

describe('classify', () => {
  it('keeps the ids of a 502 so the retry goes to the same conversation', () => {
    const o = classify(wire(502, { success: true, message: 'provider refused', meta: {}, data: { conversation_id: '7', client_id: '9' } }));
    expect(o).toMatchObject({ kind: 'send_failed', httpStatus: 502, conversationId: '7', clientId: '9' });
  });

  it('reads 401 and 403 as a refused token', () => {
    expect(classify(wire(401, { success: false, message: 'Unauthenticated.' })).kind).toBe('auth');
    expect(classify(wire(403, { success: false, message: 'Forbidden' })).kind).toBe('auth');
  });

  it("reads 429 as rate limited with the platform's wait", () => {
    expect(classify(wire(429, { success: false, message: 'Too Many Attempts.' }, { 'retry-after': '2' }))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 2000 });
  });

  it('reads 422 and 404 as refused, with the platform message', () => {
    expect(classify(wire(422, { success: false, message: 'send_type template is not allowed on ww' }))).toEqual({
      kind: 'refused',
      httpStatus: 422,
      error: '422: send_type template is not allowed on ww',
    });
    expect(classify(wire(404, { success: false, message: 'not found' })).kind).toBe('refused');
  });

  it("reads a 502 that is not the platform's envelope (a gateway's page) as in doubt", () => {
    expect(classify(wire(502, '<html><body>Bad Gateway</body></html>')).kind).toBe('in_doubt');
  });

  it('reads other 5xx and an unusable 2xx as in doubt: the message may have gone out', () => {
    expect(classify(wire(500, { success: false, message: 'oops' })).kind).toBe('in_doubt');
    expect(classify(wire(504, '<html>')).kind).toBe('in_doubt');
    expect(classify(new ApiError('no ids', { status: 200, platformMessage: '', body: {}, method: 'POST', path: '/x' })).kind).toBe('in_doubt');
  });

  it('tells a connection that never left (retry) from one lost after sending (in doubt)', () => {
    const refused = new ConnectionError('connect ECONNREFUSED', { method: 'POST', path: '/x' }, { sent: false, aborted: false, code: 'ECONNREFUSED', cause: undefined });
    const reset = new ConnectionError('other side closed', { method: 'POST', path: '/x' }, { sent: true, aborted: false, code: 'UND_ERR_SOCKET', cause: undefined });
    expect(classify(refused).kind).toBe('not_sent');
    expect(classify(reset).kind).toBe('in_doubt');
  });

  it('lets a bug through rather than calling it an outcome', () => {
    expect(() => classify(new TypeError('x is undefined'))).toThrow(TypeError);
  });
});

function stats(partial: Partial<RunStats>): RunStats {
  return { seen: 0, sent: 0, failed: 0, inDoubt: 0, skipped: 0, deferred: 0, rejected: 0, untouched: 0, interrupted: 0, warnings: 0, contactFacts: 0, providerDeferred: 0, ...partial };
}

describe('failureRatioExceeded', () => {
  it('waits for at least 50 contacts before judging', () => {
    expect(failureRatioExceeded(stats({ failed: 49 }), 0.5)).toBe(false);
  });
  it('stops once failures (and contacts in doubt) pass the ratio', () => {
    expect(failureRatioExceeded(stats({ failed: 26, sent: 24 }), 0.5)).toBe(true);
    expect(failureRatioExceeded(stats({ failed: 25, sent: 25 }), 0.5)).toBe(false);
    expect(failureRatioExceeded(stats({ failed: 10, inDoubt: 20, sent: 20 }), 0.5)).toBe(true);
  });
});

const state = <S extends ContactState = ContactState>(partial: Record<string, unknown>): S => ({ phone: '+5511999999999', status: 'pending', attempts: 0, followups: {}, ...partial }) as S;

describe('shouldSend', () => {
  const run = { retryFailed: false, retryInDoubt: false };
  const resume = { retryFailed: true, retryInDoubt: false };
  it.each([
    ['a contact never tried', undefined, run, true],
    ['a sent contact', state({ status: 'sent' }), resume, false],
    ['a skipped contact (decided again: its cause may be gone)', state({ status: 'skipped', reason: 'no_opt_in' }), run, true],
    ['a deferred contact', state({ status: 'deferred', reason: 'quiet_hours', notBefore: '2025-01-01T09:00:00.000Z' }), run, true],
    ['a retryable failure on run', state({ status: 'failed', retryable: true }), run, false],
    ['a retryable failure on resume', state({ status: 'failed', retryable: true }), resume, true],
    ['a 422 failure on resume', state({ status: 'failed', retryable: false }), resume, false],
    ['a contact in doubt on resume', state({ status: 'in_doubt' }), resume, false],
    ['a contact in doubt with --retry-in-doubt', state({ status: 'in_doubt' }), { retryFailed: true, retryInDoubt: true }, true],
  ])('%s: %s', (_name, prior, mode, expected) => {
    expect(shouldSend(prior, mode)).toBe(expected);
  });

  it('takes up a deferred contact only from its not_before on', () => {
    const deferred = state({ status: 'deferred', reason: 'marketing_limit', notBefore: '2025-01-02T12:00:00.000Z' });
    expect(shouldSend(deferred, run, Date.parse('2025-01-02T11:59:59.999Z'))).toBe(false);
    expect(shouldSend(deferred, run, Date.parse('2025-01-02T12:00:00.000Z'))).toBe(true);
    expect(shouldSend(deferred, resume, Date.parse('2025-01-03T00:00:00.000Z'))).toBe(true);
  });
});

describe('follow-ups', () => {
  const media = { url: 'https://example.com/f.jpg', content_type: 'image', file_name: 'f.jpg' };
  const job = testJob({
    message: { text: 'Oi', media },
    after_send: { tags: ['a', 'b'], custom_fields: { campaign: 'x' } },
  });

  it('are the media message, one step per tag, then the custom fields', () => {
    expect(followupSteps(job, media)).toEqual(['media', 'tag:a', 'tag:b', 'custom_fields']);
    expect(followupSteps(job, undefined)).toEqual(['tag:a', 'tag:b', 'custom_fields']);
  });

  it('owe media only when the send recorded it as owed, whatever the job says now', () => {
    expect(owedMedia(job, state<SentState>({ status: 'sent', via: 'start', mediaOwed: true }), testContacts(1)[0]!)).toEqual(media);
    expect(owedMedia(job, state<SentState>({ status: 'sent', via: 'start' }), testContacts(1)[0]!)).toBeUndefined();
    expect(owedMedia(job, state<SentState>({ status: 'sent', via: 'start', mediaLeftOut: true }), testContacts(1)[0]!)).toBeUndefined();
  });
});
