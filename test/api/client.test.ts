import { afterEach, describe, expect, it } from 'vitest';
import type { MockAgent } from 'undici';
import {
  ApiError,
  AuthError,
  ConnectionError,
  NotFoundError,
  RateLimitedError,
  SendFailedError,
  ServerError,
  ValidationError,
  createApiClient,
} from '../../src/api/index.js';
import { ORIGIN, TOKEN, mockedClient, rejection } from './helpers.js';

type Sent = { path: string; method: string; headers: Record<string, string>; body: unknown };

/** Replies once with `status`/`data` and records what was sent. */
function answer(
  pool: ReturnType<MockAgent['get']>,
  method: string,
  path: string,
  status: number,
  data: unknown,
  headers: Record<string, string> = {},
): Sent[] {
  const sent: Sent[] = [];
  pool.intercept({ path, method }).reply((opts) => {
    sent.push({
      path: opts.path,
      method: opts.method,
      headers: { ...(opts.headers as Record<string, string>) },
      body: typeof opts.body === 'string' ? JSON.parse(opts.body) : undefined,
    });
    return {
      statusCode: status,
      data: typeof data === 'string' ? data : JSON.stringify(data),
      responseOptions: { headers: { 'content-type': 'application/json', ...headers } },
    };
  });
  return sent;
}

let current: ReturnType<typeof mockedClient> | undefined;
function setup() {
  current = mockedClient();
  return current;
}
afterEach(async () => {
  if (!current) return;
  const { agent, api } = current;
  current = undefined;
  agent.assertNoPendingInterceptors();
  await api.close();
  await agent.close();
});

const message = { id: 501, content: 'hello', contentType: 'text', senderType: 'user', deliveryStatus: 'sent' };

describe('requests', () => {
  it('sends the bearer token, JSON headers and body under the base URL path prefix', async () => {
    const { api, pool } = setup();
    const sent = answer(pool, 'POST', '/api/chat/conversations/42/messages', 200, { success: true, data: message });
    const result = await api.sendMessage('42', { content: 'hello', client_message_id: 'c-1' });
    expect(result).toEqual(message);
    expect(sent[0]?.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'outreach',
    });
    expect(sent[0]?.body).toEqual({ content: 'hello', client_message_id: 'c-1' });
  });

  it('builds the query from the given parameters only', async () => {
    const { api, pool } = setup();
    const pagination = { has_more: false, oldest_id: 501, newest_id: 501, limit: 20 };
    answer(pool, 'GET', '/api/chat/conversations/42/messages?after_id=500&limit=20', 200, {
      success: true,
      data: [message],
      pagination,
    });
    const result = await api.listMessages(42, { after_id: 500, limit: 20 });
    expect(result).toEqual({ data: [message], pagination });
  });

  it('sends wba-send-template the template fields only (A5)', async () => {
    const { api, pool } = setup();
    const sent = answer(pool, 'POST', '/api/chat/conversations/7/wba-send-template', 200, { success: true, data: message });
    const body = { template_name: 'welcome', language: 'en_US', variables: { '1': 'Ana' }, extra: 'x' };
    await api.sendTemplate(7, body);
    expect(sent[0]?.body).toEqual({ template_name: 'welcome', language: 'en_US', variables: { '1': 'Ana' } });
  });

  it('updates a custom field by POST without its key', async () => {
    const { api, pool } = setup();
    const field = { id: 3, company_id: 1, name: 'Plan', key: 'plan', type: 'text', required: true, options: [], active: true };
    const sent = answer(pool, 'POST', '/api/company/1/crm-custom-fields/3', 200, { success: true, data: field });
    const body = { name: 'Plan', required: true, key: 'other' } as { name: string; required: boolean };
    expect(await api.updateCustomField(1, 3, body)).toEqual(field);
    expect(sent[0]?.body).toEqual({ name: 'Plan', required: true });
  });

  it('takes over with no body (A9)', async () => {
    const { api, pool } = setup();
    const conversation = { id: 7, status: 'open' };
    const sent = answer(pool, 'POST', '/api/chat/conversations/7/take-over', 200, { success: true, data: conversation });
    expect(await api.takeOver(7)).toEqual(conversation);
    expect(sent[0]?.body).toBeUndefined();
    expect(sent[0]?.headers['content-type']).toBeUndefined();
  });

  it('writes custom-field values under an encoded entity type', async () => {
    const { api, pool } = setup();
    answer(pool, 'POST', '/api/company/1/crm-custom-field-values/client/17', 200, { success: true, data: { plan: 'gold' } });
    expect(await api.setCustomFieldValues(1, 'client', 17, { plan: 'gold' })).toEqual({ plan: 'gold' });
  });

  it('accepts a 204 without a body for a delete', async () => {
    const { api, pool } = setup();
    answer(pool, 'DELETE', '/api/company/1/crm-tags/5', 204, '');
    await expect(api.deleteCrmTag(1, 5)).resolves.toBeUndefined();
  });

  it('refuses an id that is not an integer before sending anything', async () => {
    const { api } = setup();
    await expect(api.getClient('../admin')).rejects.toThrow(TypeError);
    await expect(api.listChannels(1.5)).rejects.toThrow('companyId must be an integer id');
  });
});

describe('start-whatsapp', () => {
  const body = { channel_id: 10, phone: '+5511999990000', send_type: 'template', template_name: 'welcome', language: 'en_US', variables: { '1': 'Ana' } } as const;

  it('returns the ids as strings, numbers accepted (A4)', async () => {
    const { api, pool } = setup();
    answer(pool, 'POST', '/api/chat/conversations/start-whatsapp', 200, {
      success: true,
      data: { conversation_id: 31, client_id: '17', message_id: 900 },
    });
    expect(await api.startWhatsapp(body)).toEqual({ conversationId: '31', clientId: '17', messageId: 900 });
  });

  it('turns a 502 with ids in data and success true into SendFailedError with both ids (A3)', async () => {
    const { api, pool } = setup();
    answer(pool, 'POST', '/api/chat/conversations/start-whatsapp', 502, {
      success: true,
      message: 'Provider refused',
      meta: { send_status: 'failed', reason: 'recipient not opted in' },
      data: { conversation_id: '31', client_id: '17' },
    });
    const err = await rejection(api.startWhatsapp(body));
    expect(err).toBeInstanceOf(SendFailedError);
    expect(err).toMatchObject({ status: 502, conversationId: '31', clientId: '17', reason: 'recipient not opted in' });
  });

  it('turns a 502 with ids in data and success false into SendFailedError with both ids', async () => {
    const { api, pool } = setup();
    answer(pool, 'POST', '/api/chat/conversations/start-whatsapp', 502, {
      success: false,
      message: 'web session down',
      data: { conversation_id: '31', client_id: '17' },
    });
    expect(await rejection(api.startWhatsapp(body))).toMatchObject({ conversationId: '31', clientId: '17', platformMessage: 'web session down' });
  });

  it('reads a 2xx carrying ids but no message id as a failed send, status kept', async () => {
    const { api, pool } = setup();
    answer(pool, 'POST', '/api/chat/conversations/start-whatsapp', 200, {
      success: true,
      message: 'send failed',
      meta: { send_status: 'failed' },
      data: { conversation_id: '31', client_id: '17' },
    });
    const err = await rejection(api.startWhatsapp(body));
    expect(err).toBeInstanceOf(SendFailedError);
    expect(err).toMatchObject({ status: 200, conversationId: '31', clientId: '17' });
  });
});

describe('answers that are errors', () => {
  it('makes AuthError from a 401 and keeps the token out of the message, even when echoed', async () => {
    const { api, pool } = setup();
    answer(pool, 'GET', '/api/wba/templates?status=APPROVED', 401, { success: false, message: `Unauthenticated: ${TOKEN}` });
    const err = await rejection(api.listTemplates({ status: 'APPROVED' }));
    expect(err).toBeInstanceOf(AuthError);
    const e = err as AuthError;
    expect(e.status).toBe(401);
    expect(e.path).toBe('/wba/templates');
    expect(e.message).not.toContain(TOKEN);
    expect(e.platformMessage).toBe('Unauthenticated: [redacted]');
    expect(JSON.stringify(e.body)).not.toContain(TOKEN);
    expect(String(e.stack)).not.toContain(TOKEN);
  });

  it('makes ValidationError from a 422 with the platform message', async () => {
    const { api, pool } = setup();
    answer(pool, 'POST', '/api/clients', 422, { success: false, message: 'The email or phone field is required.' });
    const err = await rejection(api.createClient({ phone: '' }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ status: 422, platformMessage: 'The email or phone field is required.', method: 'POST', path: '/clients' });
  });

  it('makes RateLimitedError with Retry-After seconds', async () => {
    const { api, pool } = setup();
    answer(pool, 'GET', '/api/chat/conversations/counts', 429, { success: false, message: 'Too Many Attempts.' }, { 'retry-after': '2' });
    const err = await rejection(api.conversationCounts());
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(2000);
  });

  it('makes RateLimitedError with Retry-After as an HTTP date', async () => {
    const { api, pool } = setup();
    const at = new Date(Date.now() + 60_000).toUTCString();
    answer(pool, 'GET', '/api/chat/conversations/counts', 429, { success: false, message: 'slow' }, { 'retry-after': at });
    const err = (await rejection(api.conversationCounts())) as RateLimitedError;
    expect(err.retryAfterMs).toBeGreaterThan(55_000);
    expect(err.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('makes NotFoundError from 404, ServerError from 500, SendFailedError from a 502 on messages', async () => {
    const { api, pool } = setup();
    answer(pool, 'GET', '/api/client/99', 404, { success: false, message: 'Client not found' });
    answer(pool, 'GET', '/api/client/98', 500, 'Internal Server Error');
    answer(pool, 'POST', '/api/chat/conversations/5/messages', 502, { success: false, message: 'outside the 24h window' });
    expect(await rejection(api.getClient(99))).toBeInstanceOf(NotFoundError);
    const server = await rejection(api.getClient(98));
    expect(server).toBeInstanceOf(ServerError);
    expect(server).toMatchObject({ body: 'Internal Server Error', platformMessage: '' });
    const failed = await rejection(api.sendMessage(5, { content: 'hi' }));
    expect(failed).toBeInstanceOf(SendFailedError);
    expect(failed).toMatchObject({ conversationId: undefined, platformMessage: 'outside the 24h window' });
  });

  it('makes a plain ApiError from a 2xx whose body is not JSON, keeping the status', async () => {
    const { api, pool } = setup();
    answer(pool, 'GET', '/api/company/1/channels', 200, '<html>login</html>');
    const err = await rejection(api.listChannels(1));
    expect(err?.constructor).toBe(ApiError);
    expect(err).toMatchObject({ status: 200, body: '<html>login</html>' });
  });

  it('makes a plain ApiError from a 2xx with success false', async () => {
    const { api, pool } = setup();
    answer(pool, 'POST', '/api/clients', 200, { success: false, message: 'Email or phone required' });
    const err = await rejection(api.createClient({ email: 'a@b.test' }));
    expect(err?.constructor).toBe(ApiError);
    expect(err).toMatchObject({ status: 200, platformMessage: 'Email or phone required' });
  });

  it('makes a plain ApiError from a 2xx without the data the endpoint returns', async () => {
    const { api, pool } = setup();
    answer(pool, 'GET', '/api/clients', 200, { success: true, data: [] });
    const err = await rejection(api.listClients());
    expect(err?.constructor).toBe(ApiError);
    expect((err as ApiError).message).toContain('without pagination.current_page');
  });
});

describe('no answer', () => {
  it('reports a call aborted before it started as not sent', async () => {
    const { api } = setup();
    const controller = new AbortController();
    controller.abort();
    const err = await rejection(api.listChannels(1, { signal: controller.signal }));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ sent: false, aborted: true, status: 0 });
  });

  it('treats a transport failure of an injected dispatcher as possibly sent', async () => {
    const { api, pool } = setup();
    pool.intercept({ path: '/api/chat/conversations/start-whatsapp', method: 'POST' }).replyWithError(new Error('socket hang up'));
    const err = await rejection(api.startWhatsapp({ channel_id: 12, phone: '+1', send_type: 'text', text: 'hi' }));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err).toMatchObject({ sent: true, aborted: false });
  });
});

describe('createApiClient options', () => {
  it('refuses a token with spaces without repeating it', () => {
    const token = 'secret value';
    expect(() => createApiClient({ baseUrl: ORIGIN, token })).toThrow(TypeError);
    try {
      createApiClient({ baseUrl: ORIGIN, token });
    } catch (err) {
      expect((err as Error).message).not.toContain('secret');
    }
  });

  it('refuses a base URL that is not http(s), and non-positive sizes', () => {
    expect(() => createApiClient({ baseUrl: 'ftp://x', token: TOKEN })).toThrow('http');
    expect(() => createApiClient({ baseUrl: 'not a url', token: TOKEN })).toThrow('not a URL');
    expect(() => createApiClient({ baseUrl: ORIGIN, token: TOKEN, connections: 0 })).toThrow('connections');
  });
});
