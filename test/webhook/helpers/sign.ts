import { createHmac } from 'node:crypto';

/** The header value the platform sends for this body (API document, Events): what the tests sign with. */
export function signBody(rawBody: Buffer | string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}
