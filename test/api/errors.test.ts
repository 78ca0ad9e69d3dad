import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthError,
  ConnectionError,
  NotFoundError,
  RateLimitedError,
  SendFailedError,
  ServerError,
  ValidationError,
  errorFromResponse,
  isApiError,
  parseRetryAfter,
} from '../../src/api/index.js';

const make = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  errorFromResponse(status, body, headers, 'POST', '/chat/conversations/start-whatsapp', Date.parse('2025-01-01T00:00:00Z'));

describe('errorFromResponse', () => {
  it('makes AuthError from 401 and from 403', () => {
    expect(make(401, { success: false, message: 'Unauthenticated.' })).toBeInstanceOf(AuthError);
    expect(make(403, { success: false, message: 'Forbidden' })).toBeInstanceOf(AuthError);
  });

  it('keeps status, platform message, body, method and path', () => {
    const body = { success: false, message: 'The phone field is required.' };
    const err = make(422, body);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({
      status: 422,
      platformMessage: 'The phone field is required.',
      body,
      method: 'POST',
      path: '/chat/conversations/start-whatsapp',
      name: 'ValidationError',
    });
    expect(err.message).toBe('POST /chat/conversations/start-whatsapp answered 422: The phone field is required.');
  });

  it('reads 400 and 409 as ValidationError, 404 as NotFoundError', () => {
    expect(make(400, { success: false, message: 'bad' })).toBeInstanceOf(ValidationError);
    expect(make(409, { success: false, message: 'conflict' })).toBeInstanceOf(ValidationError);
    expect(make(404, { success: false, message: 'Conversation not found' })).toBeInstanceOf(NotFoundError);
  });

  it('makes ServerError from 5xx other than 502, and a base ApiError from anything else', () => {
    expect(make(500, 'oops')).toBeInstanceOf(ServerError);
    expect(make(503, undefined)).toBeInstanceOf(ServerError);
    expect(make(502, undefined)).not.toBeInstanceOf(ServerError);
    const other = make(302, undefined);
    expect(other.constructor).toBe(ApiError);
  });

  it('reads Retry-After in seconds', () => {
    const err = make(429, { success: false, message: 'Too Many Attempts.' }, { 'retry-after': '7' });
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(7000);
  });

  it('reads Retry-After as an HTTP date', () => {
    const err = make(429, { success: false, message: 'slow down' }, { 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' });
    expect((err as RateLimitedError).retryAfterMs).toBe(30_000);
  });

  it('leaves retryAfterMs undefined without a usable Retry-After', () => {
    expect((make(429, {}) as RateLimitedError).retryAfterMs).toBeUndefined();
    expect((make(429, {}, { 'retry-after': 'soon' }) as RateLimitedError).retryAfterMs).toBeUndefined();
  });

  it('reads a 502 ids from data when success is true (A3)', () => {
    const err = make(502, {
      success: true,
      message: 'Provider refused the message',
      meta: { send_status: 'failed', reason: 'template paused' },
      data: { conversation_id: '31', client_id: '17' },
    });
    expect(err).toBeInstanceOf(SendFailedError);
    expect(err).toMatchObject({ conversationId: '31', clientId: '17', reason: 'template paused', status: 502 });
  });

  it('reads a 502 ids from data when success is false, numbers made strings', () => {
    const err = make(502, { success: false, message: 'down', data: { conversation_id: 31, client_id: 17 } });
    expect(err).toMatchObject({ conversationId: '31', clientId: '17', platformMessage: 'down' });
  });

  it('reads a 502 ids from the top level', () => {
    const err = make(502, { success: false, message: 'down', conversation_id: '8', client_id: '9' });
    expect(err).toMatchObject({ conversationId: '8', clientId: '9' });
  });

  it('makes a SendFailedError without ids from a 502 that has none', () => {
    const err = make(502, '<html>Bad Gateway</html>') as SendFailedError;
    expect(err).toBeInstanceOf(SendFailedError);
    expect(err.conversationId).toBeUndefined();
    expect(err.clientId).toBeUndefined();
    expect(err.platformMessage).toBe('');
    expect(err.body).toBe('<html>Bad Gateway</html>');
  });

  it('is recognised by isApiError, ConnectionError included', () => {
    expect(isApiError(make(500, undefined))).toBe(true);
    const conn = new ConnectionError('x', { method: 'GET', path: '/' }, { sent: false, aborted: false, code: undefined, cause: undefined });
    expect(isApiError(conn)).toBe(true);
    expect(conn.status).toBe(0);
    expect(isApiError(new Error('x'))).toBe(false);
    expect(isApiError('x')).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads seconds, fractions and dates, never negative', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter(['3'], now)).toBe(3000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('gives undefined for absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('later', now)).toBeUndefined();
  });
});
