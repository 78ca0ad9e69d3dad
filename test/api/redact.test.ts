import { inspect } from 'node:util';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { ApiError, AuthError, ConnectionError, SendFailedError, ServerError, ValidationError, createApiClient } from '../../src/api/index.js';
import { REDACTED, makeRedactor, redactedBody } from '../../src/api/redact.js';
import { ORIGIN, rejection } from './helpers.js';

/** Tokens with the characters that JSON and URLs escape: "/", "+", "=", and letters. */
const TOKENS = ['tok_live/AbC+9z=', 'eyJ0eXAi/Oi+Jw==x/y+Q', 'OnlyLettersAndDigits42abc'];

const hex = (c: string, width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');

/** The token as a platform may echo it, each form written out independently of the redactor. */
function forms(token: string): Array<[string, string]> {
  const chars = [...token];
  const slash = token.indexOf('/') >= 0 ? token.indexOf('/') : 3;
  return [
    ['raw', token],
    ['JSON with \\/', token.replaceAll('/', '\\/')],
    ['JSON.stringify', JSON.stringify(token).slice(1, -1)],
    ['every character as \\uxxxx', chars.map((c) => `\\u${hex(c, 4)}`).join('')],
    ['every character as \\uXXXX', chars.map((c) => `\\u${hex(c, 4).toUpperCase()}`).join('')],
    ['split by one \\u escape', `${token.slice(0, slash)}\\u${hex(token[slash] ?? '', 4)}${token.slice(slash + 1)}`],
    ['encodeURIComponent', encodeURIComponent(token)],
    ['percent-encoded in lower case', encodeURIComponent(token).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ['every character percent-encoded', chars.map((c) => `%${hex(c, 2).toUpperCase()}`).join('')],
    ['URL-encoded twice', encodeURIComponent(encodeURIComponent(token))],
    ['+ read as a space', token.replaceAll('+', ' ')],
    ['+ as %20', token.replaceAll('+', '%20')],
    ['mixed, character by character', chars.map((c, i) => (i % 3 === 0 ? c : i % 3 === 1 ? `\\u${hex(c, 4)}` : `%${hex(c, 2)}`)).join('')],
  ];
}

/** Whether `text` holds the token in any form: JSON and URL escapes decoded until nothing changes, a + read as a space. */
function leaks(text: string, token: string): boolean {
  let decoded = text;
  for (let previous = ''; previous !== decoded; ) {
    previous = decoded;
    decoded = decoded
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\\//g, '/')
      .replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  const spaced = (s: string) => s.replaceAll('+', ' ');
  return text.includes(token) || spaced(decoded).includes(spaced(token));
}

describe('makeRedactor', () => {
  for (const token of TOKENS) {
    it.each(forms(token))(`masks the token ${token} written %s`, (_what, form) => {
      const redact = makeRedactor(token);
      const text = `invalid credentials "${form}" for Bearer ${form}; retry`;
      expect(leaks(text, token)).toBe(true); // the test's own check sees it
      const masked = redact(text);
      expect(masked).toBe(`invalid credentials "${REDACTED}" for Bearer ${REDACTED}; retry`);
      expect(leaks(masked, token)).toBe(false);
    });
  }

  it('leaves text without the token as it is, including text that shares a prefix with it', () => {
    const redact = makeRedactor('tok_live/AbC+9z=');
    expect(redact('tok_live/AbC 9 and tok_live%2FAbD')).toBe('tok_live/AbC 9 and tok_live%2FAbD');
    expect(makeRedactor('')('anything')).toBe('anything');
  });
});

type Pool = ReturnType<MockAgent['get']>;

/** A client created with `token` over a MockAgent, and the pool to script its answers. */
function clientWith(token: string) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const api = createApiClient({ baseUrl: `${ORIGIN}/api`, token, dispatcher: agent });
  return { api, agent, pool: agent.get(ORIGIN) };
}

function reply(pool: Pool, method: string, path: string, status: number, text: string): void {
  pool.intercept({ path, method }).reply(status, text, { headers: { 'content-type': 'application/json' } });
}

/** Everything an error carries that someone could print, log or serialise. */
function everything(err: unknown): string {
  const e = err as ApiError;
  return [e.message, e.platformMessage, JSON.stringify(e.body), String(e.body), JSON.stringify(err), String(e.stack), inspect(err, { depth: 10 })].join('\n');
}

describe('the API client never surfaces its token, in any form the platform echoes it', () => {
  for (const token of TOKENS) {
    it.each(forms(token))(`token ${token} echoed %s`, async (_what, form) => {
      const { api, agent, pool } = clientWith(token);
      const templates = '/api/wba/templates?status=APPROVED';
      // On the wire: the form as the JSON text itself (JSON.parse decodes its escapes)…
      reply(pool, 'GET', templates, 401, `{"success":false,"message":"Unauthenticated: ${form}"}`);
      // …and inside a string, as a platform quoting a JSON or URL fragment would (escapes kept).
      const quoted = JSON.stringify({ success: false, message: `bad header Authorization=Bearer ${form}`, errors: { [form]: [`${form} is not valid`] } });
      reply(pool, 'POST', '/api/clients', 422, quoted);
      reply(pool, 'POST', '/api/chat/conversations/start-whatsapp', 502, `{"success":false,"message":"provider said ${form}","meta":{"reason":"${form}"},"data":{"conversation_id":"31","client_id":"17"}}`);
      reply(pool, 'GET', '/api/company/1/channels', 500, `<html>upstream failed for token ${form}</html>`);
      reply(pool, 'GET', '/api/company/1/crm-custom-fields', 200, `{"success":false,"message":"token ${form} expired"}`);
      pool.intercept({ path: '/api/client/7', method: 'GET' }).replyWithError(new Error(`socket closed while sending Bearer ${form}`));

      const errors = [
        [AuthError, await rejection(api.listTemplates({ status: 'APPROVED' }))],
        [ValidationError, await rejection(api.createClient({ phone: '+5511987654321' }))],
        [SendFailedError, await rejection(api.startWhatsapp({ channel_id: 1, phone: '+5511987654321', send_type: 'text', text: 'hi' }))],
        [ServerError, await rejection(api.listChannels(1))],
        [ApiError, await rejection(api.listCustomFields(1))],
        [ConnectionError, await rejection(api.getClient(7))],
      ] as const;
      for (const [kind, err] of errors) {
        expect(err).toBeInstanceOf(kind);
        expect(leaks(everything(err), token), everything(err)).toBe(false);
      }
      expect((errors[0][1] as AuthError).platformMessage).toBe(`Unauthenticated: ${REDACTED}`);
      expect((errors[2][1] as SendFailedError).reason).toBe(REDACTED);
      expect((errors[2][1] as SendFailedError).conversationId).toBe('31');
      agent.assertNoPendingInterceptors();
      await api.close();
      await agent.close();
    });

    it(`masks token ${token} in what a successful answer returns`, async () => {
      const { api, agent, pool } = clientWith(token);
      const [, escaped] = forms(token)[3] ?? ['', ''];
      const data = `[{"id":1,"name":"promo ${escaped}","language":"pt_BR","category":"MARKETING","status":"APPROVED","components":[{"text":"${encodeURIComponent(token)}"}]}]`;
      reply(pool, 'GET', '/api/wba/templates', 200, `{"success":true,"data":${data}}`);
      const list = await api.listTemplates();
      expect(leaks(JSON.stringify(list), token)).toBe(false);
      expect(list[0]).toMatchObject({ id: 1, name: `promo ${REDACTED}`, components: [{ text: REDACTED }] });
      await api.close();
      await agent.close();
    });
  }
});

describe('redactedBody', () => {
  const token = 'tok_live/AbC+9z=';
  const redact = makeRedactor(token);

  it('reads a body without any escape or form of the token as it is, and masks one that has either', () => {
    expect(redactedBody('{"success":true,"data":{"id":"1"}}', redact)).toEqual({ success: true, data: { id: '1' } });
    expect(redactedBody(`{"echo":"${token}"}`, redact)).toEqual({ echo: REDACTED });
    const escaped = JSON.stringify({ echo: token }).replace(token.slice(0, 1), `\\u00${token.charCodeAt(0).toString(16)}`);
    expect(redactedBody(escaped, redact)).toEqual({ echo: REDACTED });
    expect(redactedBody('not json', redact)).toBe('not json');
  });
});
