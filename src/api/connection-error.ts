import { ConnectionError } from './errors.js';

/**
 * C4: failures that happen before any byte of the request can have reached the platform, as long as the
 * request was not yet handed to a socket (on an established keep-alive socket they can come after it was written).
 */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const DESCRIPTIONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed for now',
  EAI_FAIL: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  UND_ERR_HEADERS_TIMEOUT: 'no answer within the headers timeout',
  UND_ERR_BODY_TIMEOUT: 'the answer stalled past the body timeout',
  UND_ERR_SOCKET: 'the connection closed before the answer',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection broke while sending',
  UND_ERR_ABORTED: 'aborted',
  UND_ERR_CLOSED: 'the client is closed',
  UND_ERR_DESTROYED: 'the client is destroyed',
};

export interface ConnectionFailure {
  method: string;
  path: string;
  /** Whether undici began writing the request onto a socket (undefined when unknown). */
  started: boolean | undefined;
  signal: AbortSignal | undefined;
}

/**
 * Turns a failure without an HTTP answer into a ConnectionError that says whether it may have been
 * sent. `redact` masks the token in the message, which quotes the underlying error's own.
 */
export function toConnectionError(err: unknown, f: ConnectionFailure, redact: (text: string) => string = (t) => t): ConnectionError {
  const aborted = f.signal?.aborted === true;
  const code = errorCode(err);
  // A request handed to a socket may have gone out whatever the code says (EHOSTUNREACH on a keep-alive socket
  // after the bytes were written): `started` wins; a "not sent" code decides only when `started` is unknown.
  const sent = f.started === true || (f.started !== false && !(code !== undefined && NOT_SENT_CODES.has(code)));
  const what = aborted ? 'aborted by the caller' : (code && DESCRIPTIONS[code]) || describe(err);
  const fate = sent ? 'it may have reached the platform' : 'it was not sent';
  return new ConnectionError(
    redact(`${f.method} ${f.path}: no answer, ${what}${code && !aborted ? ` (${code})` : ''}; ${fate}`),
    { method: f.method, path: f.path },
    { sent, aborted, code, cause: redactedCause(err, redact) },
  );
}

/**
 * The underlying error as a plain Error with the token masked in its message, stack and causes: what
 * undici throws can quote the answer's bytes (its parser errors do), and loggers print causes.
 */
function redactedCause(err: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (typeof err === 'string') return redact(err);
  if (!(err instanceof Error)) return err === null || typeof err !== 'object' ? err : undefined;
  const inner = depth < 4 && err.cause !== undefined ? { cause: redactedCause(err.cause, redact, depth + 1) } : undefined;
  const copy = new Error(redact(err.message), inner);
  copy.name = err.name;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  copy.stack = err.stack === undefined ? `${copy.name}: ${copy.message}` : redact(err.stack);
  return copy;
}

/** The code of a system or undici error, looking through `cause` and an AggregateError's first error. */
export function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    if (typeof e !== 'object') return undefined;
    const { code, cause, errors } = e as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string') return code;
    e = Array.isArray(errors) && errors.length > 0 ? errors[0] : cause;
  }
  return undefined;
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
