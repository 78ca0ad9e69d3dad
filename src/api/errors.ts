import {
  AUTH_STATUSES,
  NOT_FOUND_STATUS,
  RATE_LIMITED_STATUS,
  SEND_FAILED_STATUS,
  isValidationStatus,
} from './assumptions.js';
import { readProviderCode } from './provider-code.js';
import { parseRetryAfter } from './retry-after.js';

/** Response headers as undici gives them. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface ApiErrorInit {
  /** HTTP status; 0 when no answer came (ConnectionError). */
  status: number;
  /** The platform's `message`, or '' when the body had none. */
  platformMessage: string;
  /** The parsed JSON body, or its text when it was not JSON, or undefined. */
  body: unknown;
  method: string;
  /** Path under the base URL, without the query string. */
  path: string;
  /** The known WhatsApp provider code read from `platformMessage` (provider-code.ts), if any. */
  providerCode?: number | undefined;
}

/** Anything the API client throws about a request: an answer it cannot use, or no answer. */
export class ApiError extends Error {
  readonly status: number;
  readonly platformMessage: string;
  readonly body: unknown;
  readonly method: string;
  readonly path: string;
  /** The known WhatsApp provider code in the platform's message (`(#131026) …`), whatever the status. */
  readonly providerCode: number | undefined;

  constructor(message: string, init: ApiErrorInit, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.status = init.status;
    this.platformMessage = init.platformMessage;
    this.body = init.body;
    this.method = init.method;
    this.path = init.path;
    this.providerCode = init.providerCode;
  }
}

/** 401 or 403 (A19): the token was refused. Nothing was done. */
export class AuthError extends ApiError {}

/** 429 (A20): nothing was done; wait `retryAfterMs` when the platform said how long. */
export class RateLimitedError extends ApiError {
  readonly retryAfterMs: number | undefined;
  constructor(message: string, init: ApiErrorInit, retryAfterMs: number | undefined) {
    super(message, init);
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * 502 (A3, A7, A22): the provider refused the send or the web-session service is down. On
 * start-whatsapp the client and conversation exist and their ids are here when the body had them.
 */
export class SendFailedError extends ApiError {
  readonly conversationId: string | undefined;
  readonly clientId: string | undefined;
  /** A3's `meta.reason`, when given. */
  readonly reason: string | undefined;
  constructor(message: string, init: ApiErrorInit, ids: SendFailureIds) {
    super(message, init);
    this.conversationId = ids.conversationId;
    this.clientId = ids.clientId;
    this.reason = ids.reason;
  }
}

/** 422, 400, 409 and any other 4xx not listed here (A21): the request was refused as written. */
export class ValidationError extends ApiError {}

/** 404 (A21): unknown conversation, client, field or tag. */
export class NotFoundError extends ApiError {}

/** Any 5xx other than 502. */
export class ServerError extends ApiError {}

/**
 * No HTTP answer. `sent: false` only when the request certainly never left (refused or failed
 * connection, DNS failure, connect timeout, aborted before it was written); otherwise the
 * platform may have acted on it. `aborted` when the caller's signal ended it.
 */
export class ConnectionError extends ApiError {
  readonly sent: boolean;
  readonly aborted: boolean;
  /** The system or undici error code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, …), when known. */
  readonly code: string | undefined;
  constructor(
    message: string,
    init: { method: string; path: string },
    detail: { sent: boolean; aborted: boolean; code: string | undefined; cause: unknown },
  ) {
    super(message, { status: 0, platformMessage: '', body: undefined, ...init }, { cause: detail.cause });
    this.sent = detail.sent;
    this.aborted = detail.aborted;
    this.code = detail.code;
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** The ONE factory from a non-2xx answer to the error callers branch on (C3: every 502 is a SendFailedError). */
export function errorFromResponse(
  status: number,
  body: unknown,
  headers: ResponseHeaders,
  method: string,
  path: string,
  now: number = Date.now(),
): ApiError {
  const platformMessage = readMessage(body);
  const providerCode = platformMessage === '' ? undefined : readProviderCode(platformMessage);
  const init: ApiErrorInit = { status, platformMessage, body, method, path, providerCode };
  const message = `${method} ${path} answered ${status}${platformMessage ? `: ${platformMessage}` : ''}`;

  if (AUTH_STATUSES.includes(status)) return new AuthError(message, init);
  if (status === RATE_LIMITED_STATUS) {
    return new RateLimitedError(message, init, parseRetryAfter(headers['retry-after'], now));
  }
  if (status === SEND_FAILED_STATUS) return new SendFailedError(message, init, readSendFailure(body));
  if (status === NOT_FOUND_STATUS) return new NotFoundError(message, init);
  if (isValidationStatus(status)) return new ValidationError(message, init);
  if (status >= 500 && status < 600) return new ServerError(message, init);
  return new ApiError(message, init);
}

/** A 2xx whose body is not the success envelope, or lacks what the endpoint must return. */
export function unusableAnswer(status: number, body: unknown, method: string, path: string, why: string): ApiError {
  const platformMessage = readMessage(body);
  return new ApiError(`${method} ${path} answered ${status} but ${why}${platformMessage ? `: ${platformMessage}` : ''}`, {
    status,
    platformMessage,
    body,
    method,
    path,
  });
}

function readMessage(body: unknown): string {
  return isRecord(body) && typeof body.message === 'string' ? body.message : '';
}

export interface SendFailureIds {
  conversationId?: string | undefined;
  clientId?: string | undefined;
  reason?: string | undefined;
}

/** A3: ids from `data.*` whatever `success` says, else from the top level; numbers become strings (A4). */
export function readSendFailure(body: unknown): SendFailureIds {
  if (!isRecord(body)) return {};
  const data = isRecord(body.data) ? body.data : {};
  const meta = isRecord(body.meta) ? body.meta : {};
  return {
    conversationId: idString(data.conversation_id) ?? idString(body.conversation_id),
    clientId: idString(data.client_id) ?? idString(body.client_id),
    reason: typeof meta.reason === 'string' ? meta.reason : undefined,
  };
}

function idString(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
