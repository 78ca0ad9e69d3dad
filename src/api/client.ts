import { childSignal } from './abort-listeners.js';
import type { Dispatcher } from 'undici';
import { isSuccessStatus } from './assumptions.js';
import { type ConnectionFailure, toConnectionError } from './connection-error.js';
import { type Answer, parseBody, successEnvelope } from './envelope.js';
import { errorFromResponse } from './errors.js';
import { createPool } from './pool.js';
import { makeRedactor, redactValue } from './redact.js';
import { type Query, queryString } from './paths.js';
import { trackStart } from './track-start.js';

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

  async function send(call: Call): Promise<Answer> {
    const { method, path, signal } = call;
    // Our Pool reports when it starts writing the request; an injected dispatcher may not, so
    // for it "not started" stays unknown (undefined) rather than false.
    const failure: ConnectionFailure = { method, path, signal, started: s.dispatcher ? undefined : false };
    if (signal?.aborted) throw toConnectionError(signal.reason, { ...failure, started: false }, redact);

    const headers: Record<string, string> = {
      authorization: `Bearer ${s.token}`,
      accept: 'application/json',
      'user-agent': s.userAgent,
    };
    let payload: string | undefined;
    if (call.body !== undefined) {
      payload = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }

    // undici listens on the signal it is given: each request gets its own, tied to the caller's by one
    // listener for them all (abort-listeners.ts), so a pass of many requests stays under Node's limit.
    const own = signal ? childSignal(signal) : undefined;
    let text: string;
    let response: Dispatcher.ResponseData;
    try {
      try {
        response = await dispatcher.compose(trackStart(() => (failure.started = true))).request({
          origin: s.origin,
          path: `${s.prefix}${path}${queryString(call.query)}`,
          method,
          headers,
          body: payload,
          signal: own?.signal,
        });
      } catch (err) {
        throw toConnectionError(err, failure, redact);
      }

      try {
        text = await response.body.text();
      } catch (err) {
        response.body.destroy();
        throw toConnectionError(err, { ...failure, started: true }, redact);
      }
    } finally {
      own?.release();
    }

    const body = redactValue(parseBody(text), redact);
    if (!isSuccessStatus(response.statusCode)) {
      throw errorFromResponse(response.statusCode, body, response.headers, method, path);
    }
    return successEnvelope(response.statusCode, body, method, path);
  }

  return {
    send,
    async close() {
      if (!s.dispatcher) await dispatcher.close();
    },
  };
}
