import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/webhook/signature.js';
import { signBody } from './helpers/sign.js';

const secret = 'whsec_test_1';
const raw = Buffer.from('{"event":"chat.message","data":{"message":{"id":7,"content":"olá"},"direction":"inbound"},"timestamp":"2025-01-02T03:04:05+00:00"}');

describe('verifySignature', () => {
  it('accepts the HMAC-SHA256 of the raw bytes with the secret', () => {
    expect(verifySignature(raw, signBody(raw, secret), secret)).toBe(true);
  });

  it('accepts upper-case hex digits', () => {
    const header = signBody(raw, secret).replace(/^sha256=/, '');
    expect(verifySignature(raw, `sha256=${header.toUpperCase()}`, secret)).toBe(true);
  });

  it('refuses a body changed by one byte', () => {
    const tampered = Buffer.from(raw);
    tampered[10] = tampered[10]! ^ 1;
    expect(verifySignature(tampered, signBody(raw, secret), secret)).toBe(false);
  });

  it('refuses a signature made with another secret', () => {
    expect(verifySignature(raw, signBody(raw, 'other'), secret)).toBe(false);
  });

  it('refuses the same JSON re-serialised (pretty-printed or keys reordered) under the original signature', () => {
    const header = signBody(raw, secret);
    const pretty = Buffer.from(JSON.stringify(JSON.parse(raw.toString()), null, 2));
    const { event, data, timestamp } = JSON.parse(raw.toString()) as Record<string, unknown>;
    const reordered = Buffer.from(JSON.stringify({ timestamp, data, event }));
    const compact = Buffer.from(JSON.stringify(JSON.parse(raw.toString())).replace('olá', '\\u006fl\\u00e1'));
    for (const body of [pretty, reordered, compact]) {
      expect(body.equals(raw)).toBe(false);
      expect(verifySignature(body, header, secret)).toBe(false);
    }
  });

  it('refuses a missing header', () => {
    expect(verifySignature(raw, undefined, secret)).toBe(false);
    expect(verifySignature(raw, '', secret)).toBe(false);
  });

  it('refuses malformed headers: bare hex, other scheme, short, long, non-hex', () => {
    const hex = signBody(raw, secret).slice('sha256='.length);
    for (const header of [hex, `sha1=${hex}`, `sha256=${hex.slice(2)}`, `sha256=${hex}00`, `sha256=${'z'.repeat(64)}`, 'sha256=']) {
      expect(verifySignature(raw, header, secret)).toBe(false);
    }
  });

  it('refuses everything when the secret is empty', () => {
    expect(verifySignature(raw, signBody(raw, ''), '')).toBe(false);
  });
});
