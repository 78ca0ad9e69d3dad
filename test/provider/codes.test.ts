import { describe, expect, it } from 'vitest';
import { KNOWN_PROVIDER_CODES, errorFromResponse } from '../../src/api/index.js';
import { classify, providerClass, providerRefusalOf } from '../../src/run/index.js';

/** The four written forms of a provider code in a platform failure's `message` (issue 13). */
const FORMS: ReadonlyArray<[string, (code: number) => string]> = [
  ['(#N) …', (code) => `(#${code}) Message refused.`],
  ['code N', (code) => `WhatsApp refused the message with code ${code}`],
  ['"code":N / "code": "N"', (code) => (code % 2 === 0 ? `{"error":{"code":${code},"message":"refused"}}` : `{"error": {"code": "${code}"}}`)],
  ['N: / N - at the start', (code) => (code % 2 === 0 ? `${code}: refused` : `${code} - refused`)],
];

const at = Date.parse('2026-01-01T00:00:00Z');

describe('every provider code, in each written form, reaches the executor with its class', () => {
  for (const [form, text] of FORMS) {
    it(`classifies a 502 whose message has the code as ${form}`, () => {
      for (const code of KNOWN_PROVIDER_CODES) {
        for (const [endpoint, body] of [
          ['/chat/conversations/start-whatsapp', { success: true, message: text(code), data: { conversation_id: '7', client_id: '8' } }],
          ['/chat/conversations/7/wba-send-template', { success: false, message: text(code) }],
          ['/chat/conversations/7/messages', { success: false, message: text(code) }],
        ] as const) {
          const outcome = classify(errorFromResponse(502, body, {}, 'POST', endpoint, at));
          expect(outcome, `${endpoint} ${text(code)}`).toMatchObject({ kind: 'send_failed', provider: { code, class: providerClass(code) } });
          expect(providerRefusalOf(outcome)).toEqual({ code, class: providerClass(code), httpStatus: 502 });
        }
      }
    });
  }

  it('acts on a code whatever the status: a 422 or a 500 with one is the provider refusing (A33)', () => {
    expect(providerRefusalOf(classify(errorFromResponse(422, { success: false, message: '(#131008) Required parameter is missing.' }, {}, 'POST', '/x', at)))).toEqual({
      code: 131008,
      class: 'bad_request',
      httpStatus: 422,
    });
    expect(providerRefusalOf(classify(errorFromResponse(500, { success: false, message: 'code 131026' }, {}, 'POST', '/x', at)))).toEqual({
      code: 131026,
      class: 'undeliverable',
      httpStatus: 500,
    });
  });

  it('keeps today\'s behaviour without a code, for a refused token and for a 429', () => {
    expect(providerRefusalOf(classify(errorFromResponse(502, { success: false, message: 'The provider failed.' }, {}, 'POST', '/x', at)))).toBeUndefined();
    expect(classify(errorFromResponse(401, { success: false, message: '(#131048) spam' }, {}, 'POST', '/x', at)).kind).toBe('auth');
    expect(providerRefusalOf(classify(errorFromResponse(429, { success: false, message: '(#130429) Rate limit hit' }, {}, 'POST', '/x', at)))).toBeUndefined();
  });
});
