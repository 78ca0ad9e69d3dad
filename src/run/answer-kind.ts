import { ConnectionError, RateLimitedError, SendFailedError, ServerError } from '../api/index.js';
import type { SampleKind } from './concurrency.js';

/** undici's codes for a request that waited past a timeout of the client's. */
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * What a failed request says to the adaptive concurrency (pure): an overload signal (timeout, 429,
 * 5xx, a connection the platform dropped or refused), 'ok' for an answer that is only a refusal of
 * this request (4xx, a 502 of the provider's with the platform's envelope), or undefined for a
 * request the run itself cut (no answer time to learn from).
 */
export function answerKind(err: unknown): SampleKind | undefined {
  if (err instanceof RateLimitedError) return 'rate_limited';
  if (err instanceof ServerError) return 'server_error';
  if (err instanceof SendFailedError) return isEnvelope(err.body) ? 'ok' : 'server_error';
  if (err instanceof ConnectionError) {
    if (err.aborted) return undefined;
    return err.code !== undefined && TIMEOUT_CODES.has(err.code) ? 'timeout' : 'server_error';
  }
  return 'ok';
}

function isEnvelope(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as { success?: unknown }).success === 'boolean';
}
