import type { Dispatcher } from 'undici';
import { isSuccessStatus } from './assumptions.js';
import { type ConnectionFailure, toConnectionError } from './connection-error.js';
import { type Answer, successEnvelope } from './envelope.js';
import { exchange, ExchangeFailure, type Exchanged } from './exchange.js';
import { errorFromResponse } from './errors.js';
import { createPool } from './pool.js';
import { makeRedactor, redactedBody } from './redact.js';
import { type Query, queryString } from './paths.js';

export interface ApiClientOptions {
  /** `https://host[:port][/prefix]`; every endpoint path is appended to it. */
  baseUrl: string;
  /** The integration token, sent as `Authorization: Bearer`. Never appears in an error. */
  token: string;
  /** Sockets to the platform at most: the run's most requests in flight. Default 4. */
  connections?: number;
  /**
   * Offer HTTP/2 to the platform (TLS only): when it accepts, one connection carries up to 100 requests
   * at once instead of one. Default false.
   */
  allowH2?: boolean;
  /** Default 10 s. */
  connectTimeoutMs?: number;
  /** Time to the answer's headers. Default 30 s. */
  headersTimeoutMs?: number;
  /** Longest silence while reading the answer's body. Default 30 s. */
  bodyTimeoutMs?: number;
  userAgent?: string;
  /** For tests (e.g. undici's MockAgent): used instead of a Pool, and not closed by close(). */
  dispatcher?: Dispatcher;
}

interface Settings {
  origin: string;
  prefix: string;
  token: string;
  connections: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  userAgent: string;
  allowH2: boolean;
  dispatcher: Dispatcher | undefined;
}

const DEFAULTS = {
  connections: 4,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 30_000,
  userAgent: 'outreach',
  allowH2: false,
};

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Call {
  method: Method;
  /** Path under the base URL, starting with '/'. */
  path: string;
  query?: Query;
  /** Sent as JSON when defined. */
  body?: unknown;
  signal?: AbortSignal | undefined;
}

/** Sends one request and returns its success envelope, or throws the ApiError it amounts to. */
export interface Transport {
  send(call: Call): Promise<Answer>;
  close(): Promise<void>;
}

/** Options merged over the defaults once, and checked. */
function settle(options: ApiClientOptions): Settings {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`baseUrl "${options.baseUrl}" is not a URL; write it as https://host[:port][/path]`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseUrl "${options.baseUrl}" must start with http:// or https://`);
  }
  if (url.search || url.hash) throw new TypeError(`baseUrl "${options.baseUrl}" must not carry a query or fragment`);
  if (!/^[\x21-\x7e]+$/.test(options.token)) {
    throw new TypeError('token must be one line of visible ASCII characters, without spaces');
  }
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const merged = { ...DEFAULTS, ...defined } as typeof DEFAULTS & ApiClientOptions;
  for (const key of ['connections', 'connectTimeoutMs', 'headersTimeoutMs', 'bodyTimeoutMs'] as const) {
    const v = merged[key];
    if (!Number.isSafeInteger(v) || v <= 0) throw new TypeError(`${key} must be a positive integer, got ${v}`);
  }
  return {
    origin: url.origin,
    prefix: url.pathname.replace(/\/+$/, ''),
    token: options.token,
    connections: merged.connections,
    connectTimeoutMs: merged.connectTimeoutMs,
    headersTimeoutMs: merged.headersTimeoutMs,
    bodyTimeoutMs: merged.bodyTimeoutMs,
    userAgent: merged.userAgent,
    allowH2: merged.allowH2 === true,
    dispatcher: options.dispatcher,
  };
}

export function createTransport(options: ApiClientOptions): Transport {
  const s = settle(options);
  const dispatcher: Dispatcher =
    s.dispatcher ??
    createPool(s.origin, {
      connections: s.connections,
      connectTimeoutMs: s.connectTimeoutMs,
      headersTimeoutMs: s.headersTimeoutMs,
      bodyTimeoutMs: s.bodyTimeoutMs,
      allowH2: s.allowH2,
    });
  // C5: the token, in any form (redact.ts), is masked in everything the platform sends back, before
  // anything reads it: every string of a JSON body (keys too), a body that is not JSON, and the
  // message of a failure without an answer.
  const redact = makeRedactor(s.token);

  // Every request carries the same headers: built once (undici reads them, never changes them).
  const plainHeaders: Record<string, string> = { authorization: `Bearer ${s.token}`, accept: 'application/json', 'user-agent': s.userAgent };
  const jsonHeaders: Record<string, string> = { ...plainHeaders, 'content-type': 'application/json' };

  async function send(call: Call): Promise<Answer> {
    const { method, path, signal } = call;
    // Our Pool reports when it starts writing the request; an injected dispatcher may not, so
    // for it "not started" stays unknown (undefined) rather than false.
    const failure: ConnectionFailure = { method, path, signal, started: s.dispatcher ? undefined : false };
    if (signal?.aborted) throw toConnectionError(signal.reason, { ...failure, started: false }, redact);
    const payload = call.body === undefined ? undefined : JSON.stringify(call.body);

    // The caller's signal is listened to through onAbort (one listener per signal for all requests).
    let answer: Exchanged;
    try {
      answer = await exchange(
        dispatcher,
        { origin: s.origin, path: `${s.prefix}${path}${queryString(call.query)}`, method, headers: payload === undefined ? plainHeaders : jsonHeaders, body: payload },
        signal,
        () => (failure.started = true),
      );
    } catch (err) {
      if (!(err instanceof ExchangeFailure)) throw err;
      throw toConnectionError(err.error, err.answering ? { ...failure, started: true } : failure, redact);
    }

    const body = redactedBody(answer.text, redact);
    if (!isSuccessStatus(answer.statusCode)) {
      throw errorFromResponse(answer.statusCode, body, answer.headers, method, path);
    }
    return successEnvelope(answer.statusCode, body, method, path);
  }

  return {
    send,
    async close() {
      if (!s.dispatcher) await dispatcher.close();
    },
  };
}
