/**
 * The webhook's signature (API document, Events): header `X-Service-Signature: sha256=<hex>`,
 * HMAC-SHA256 of the exact raw body with the webhook's secret, compared in constant time.
 * Pure: no I/O, no clock.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';

const SHA256_HEX = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * True when `header` is `sha256=<64 hex digits>` and equals the HMAC of the raw bytes.
 * Anything else (missing, other scheme, wrong length, non-hex, empty secret) is false.
 */
export function verifySignature(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (!header || !secret) return false;
  const hex = SHA256_HEX.exec(header.trim())?.[1];
  if (hex === undefined) return false;
  const given = Buffer.from(hex, 'hex');
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
