import {
  AuthError,
  ConnectionError,
  NotFoundError,
  RateLimitedError,
  SendFailedError,
  ServerError,
  ValidationError,
  isApiError,
  type ApiError,
} from '../api/index.js';
import { providerClass, type ProviderClass } from './provider-classes.js';

/** The provider's refusal read from a platform failure (`(#131026) …`): its code and class. */
export interface ProviderRefusal {
  code: number;
  class: ProviderClass;
}

/** Present on an outcome whose platform message carried a known provider code. */
type Refused = { provider?: ProviderRefusal };

/** What one request to the platform came to, as the executor branches on it. */
export type Outcome =
  /** 502: the platform kept the client and conversation (ids when it gave them); retry on the conversation. */
  | ({ kind: 'send_failed'; httpStatus: number; conversationId?: string; clientId?: string; error: string } & Refused)
  /** 422, 404 and other 4xx: the platform refused the request itself; retrying would not help. */
  | ({ kind: 'refused'; httpStatus: number; error: string } & Refused)
  /** 401/403: the token was refused; the whole run stops. */
  | { kind: 'auth'; httpStatus: number; error: string }
  /** 429: nothing was done; wait and send again. */
  | { kind: 'rate_limited'; retryAfterMs?: number; error: string }
  /** No answer, and the request certainly did not leave (connection refused): safe to send again. */
  | { kind: 'not_sent'; error: string }
  /** No answer (or a 5xx other than 502) after the request went out: it may have been delivered. */
  | ({ kind: 'in_doubt'; httpStatus: number; error: string } & Refused);

/**
 * The provider's refusal an outcome carries, when its class makes the run act (any class but `other`),
 * with the HTTP status it came with.
 */
export function providerRefusalOf(outcome: Outcome): (ProviderRefusal & { httpStatus: number }) | undefined {
  // A 429 is waited out by callPlatform whatever its text; a refused token stops the run whatever its text.
  if (outcome.kind === 'auth' || outcome.kind === 'not_sent' || outcome.kind === 'rate_limited') return undefined;
  const provider = outcome.provider;
  if (provider === undefined || provider.class === 'other') return undefined;
  return { ...provider, httpStatus: outcome.httpStatus };
}

/** Turns whatever a client call threw into an Outcome. Pure: the error classes carry everything. */
export function classify(err: unknown): Outcome {
  if (err instanceof SendFailedError) {
    // A 502 that is not the platform's JSON envelope (a gateway's HTML page) says nothing of the send (C3).
    if (!isEnvelope(err.body)) {
      return { kind: 'in_doubt', httpStatus: err.status, error: `${err.status} from something other than the platform (no JSON envelope): the message may have gone out` };
    }
    return {
      kind: 'send_failed',
      httpStatus: err.status,
      conversationId: err.conversationId,
      clientId: err.clientId,
      error: describe(err.status, err.platformMessage),
      ...refusalOf(err),
    };
  }
  if (err instanceof AuthError) return { kind: 'auth', httpStatus: err.status, error: describe(err.status, err.platformMessage) };
  if (err instanceof RateLimitedError) {
    return { kind: 'rate_limited', retryAfterMs: err.retryAfterMs, error: describe(err.status, err.platformMessage) };
  }
  if (err instanceof ValidationError || err instanceof NotFoundError) {
    return { kind: 'refused', httpStatus: err.status, error: describe(err.status, err.platformMessage), ...refusalOf(err) };
  }
  if (err instanceof ServerError) {
    // A 500/503/504 says nothing of whether the message went out (assumption A30), unless the provider's refusal is in it (A33).
    return { kind: 'in_doubt', httpStatus: err.status, error: describe(err.status, err.platformMessage), ...refusalOf(err) };
  }
  if (err instanceof ConnectionError) {
    return err.sent
      ? { kind: 'in_doubt', httpStatus: 0, error: `no answer after the request went out: ${err.message}` }
      : { kind: 'not_sent', error: `could not reach the platform: ${err.message}` };
  }
  if (isApiError(err)) {
    // A 2xx the client could not use (no ids, not JSON): the platform accepted it, so it may have gone out.
    return err.status >= 500 || (err.status >= 200 && err.status < 300)
      ? { kind: 'in_doubt', httpStatus: err.status, error: describe(err.status, err.platformMessage), ...refusalOf(err) }
      : { kind: 'refused', httpStatus: err.status, error: describe(err.status, err.platformMessage), ...refusalOf(err) };
  }
  throw err;
}

function refusalOf(err: ApiError): Refused {
  const code = err.providerCode;
  return code === undefined ? {} : { provider: { code, class: providerClass(code) } };
}

function isEnvelope(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as { success?: unknown }).success === 'boolean';
}

function describe(status: number, message: string): string {
  return message ? `${status}: ${message}` : `HTTP ${status}`;
}
