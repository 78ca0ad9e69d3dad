import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  KNOWN_PROVIDER_CODES,
  RateLimitedError,
  SendFailedError,
  ValidationError,
  errorFromResponse,
  readProviderCode,
} from '../../src/api/index.js';

const FORMS: ReadonlyArray<[string, (code: number) => string]> = [
  ["the provider's (#code)", (code) => `Provider refused the message: (#${code}) Message undeliverable.`],
  ['code N', (code) => `WhatsApp send failed with code ${code}, see the provider`],
  ['"code":N', (code) => `provider answered {"error":{"message":"refused","type":"OAuthException","code":${code}}}`],
  ['"code": "N"', (code) => `provider answered {"error": {"code": "${code}", "title": "refused"}}`],
  ['N: at the start', (code) => `${code}: Re-engagement message`],
  ['N - at the start', (code) => `${code} - Re-engagement message`],
];

describe('readProviderCode', () => {
  for (const [form, text] of FORMS) {
    it(`reads every known code in the form ${form}`, () => {
      for (const code of KNOWN_PROVIDER_CODES) expect(readProviderCode(text(code)), text(code)).toBe(code);
    });
  }

  it('reads "code" in any case, after a colon or an equals sign, with or without #', () => {
    expect(readProviderCode('Error Code: 131047')).toBe(131047);
    expect(readProviderCode('CODE=470 window closed')).toBe(470);
    expect(readProviderCode('code #131056 pair rate')).toBe(131056);
    expect(readProviderCode('{"code" : 368}')).toBe(368);
  });

  it('reads the first known code when the text has several', () => {
    expect(readProviderCode('(#131026) then code 131050')).toBe(131026);
    expect(readProviderCode('code 131050 after (#131026)')).toBe(131050);
  });

  it('skips an unknown code and reads a known one further on', () => {
    expect(readProviderCode('code 999999 wrapped (#131049)')).toBe(131049);
  });

  it('finds nothing in an empty message or one without a code', () => {
    expect(readProviderCode('')).toBeUndefined();
    expect(readProviderCode('Provider refused the message')).toBeUndefined();
  });

  it('does not read an unknown code in any form', () => {
    expect(readProviderCode('(#131000) something')).toBeUndefined();
    expect(readProviderCode('code 42')).toBeUndefined();
    expect(readProviderCode('{"code":500}')).toBeUndefined();
    expect(readProviderCode('404: not found')).toBeUndefined();
  });

  it('does not read a phone number that contains a code', () => {
    expect(readProviderCode('cannot send to +55 11 91310 2600')).toBeUndefined();
    expect(readProviderCode('cannot send to 5511131026')).toBeUndefined();
    expect(readProviderCode('5511131026: not on WhatsApp')).toBeUndefined();
    expect(readProviderCode('+131026 - refused')).toBeUndefined();
    expect(readProviderCode('phone 131026 is not valid')).toBeUndefined();
  });

  it('does not read an id, a count or a time that looks like a code', () => {
    expect(readProviderCode('conversation 131026 refused')).toBeUndefined();
    expect(readProviderCode('message id 131047 was not sent')).toBeUndefined();
    expect(readProviderCode('{"id":131026,"error_code":"x"}')).toBeUndefined();
    expect(readProviderCode('{"error_code":131026}')).toBeUndefined();
    expect(readProviderCode('{"error_subcode":2494010,"subcode":131026}')).toBeUndefined();
    expect(readProviderCode('zipcode 131026')).toBeUndefined();
    expect(readProviderCode('100 contacts refused')).toBeUndefined();
    expect(readProviderCode('100-200 refused')).toBeUndefined();
    expect(readProviderCode('10:30 window')).toBeUndefined();
    expect(readProviderCode('100:30 ratio')).toBeUndefined();
    expect(readProviderCode('text before 131026: later')).toBeUndefined();
  });

  it('does not read part of a longer number or a decimal', () => {
    expect(readProviderCode('(#1310260)')).toBeUndefined();
    expect(readProviderCode('(#0100)')).toBeUndefined();
    expect(readProviderCode('code 1310260')).toBeUndefined();
    expect(readProviderCode('code 100.5')).toBeUndefined();
    expect(readProviderCode('code 100,5')).toBeUndefined();
    expect(readProviderCode('{"code":100.5}')).toBeUndefined();
    expect(readProviderCode('{"code":"1310260"}')).toBeUndefined();
    expect(readProviderCode('{"code":"131026x"}')).toBeUndefined();
  });
});

describe('errorFromResponse and the provider code', () => {
  const make = (status: number, body: unknown) =>
    errorFromResponse(status, body, {}, 'POST', '/chat/conversations/start-whatsapp', Date.parse('2025-01-01T00:00:00Z'));

  it("sets providerCode on a 502 from the platform's message", () => {
    const err = make(502, { success: true, message: '(#131026) Message undeliverable', data: { conversation_id: '31' } });
    expect(err).toBeInstanceOf(SendFailedError);
    expect(err.providerCode).toBe(131026);
  });

  it('sets providerCode whatever the status', () => {
    expect(make(422, { success: false, message: 'code 131008: required parameter missing' }).providerCode).toBe(131008);
    expect(make(429, { success: false, message: '(#130429) Rate limit hit' })).toBeInstanceOf(RateLimitedError);
    expect(make(429, { success: false, message: '(#130429) Rate limit hit' }).providerCode).toBe(130429);
    expect(make(400, { success: false, message: '132015: template paused' })).toBeInstanceOf(ValidationError);
    expect(make(400, { success: false, message: '132015: template paused' }).providerCode).toBe(132015);
    expect(make(500, { success: false, message: '{"code": "368"}' }).providerCode).toBe(368);
  });

  it('leaves providerCode undefined without a known code or without an envelope message', () => {
    expect(make(502, { success: false, message: 'Provider refused the message' }).providerCode).toBeUndefined();
    expect(make(502, '<html>(#131026)</html>').providerCode).toBeUndefined();
    expect(make(502, { success: false }).providerCode).toBeUndefined();
  });

  it('has no providerCode on a connection error', () => {
    const err = new ConnectionError('refused', { method: 'POST', path: '/x' }, { sent: false, aborted: false, code: 'ECONNREFUSED', cause: undefined });
    expect(err.providerCode).toBeUndefined();
  });
});
