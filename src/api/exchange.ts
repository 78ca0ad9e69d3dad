import { util, type Dispatcher } from 'undici';
import { onAbort } from './abort-listeners.js';
import type { ResponseHeaders } from './errors.js';

/** An HTTP answer, its body read whole as UTF-8 text (a byte-order mark left out). */
export interface Exchanged {
  statusCode: number;
  headers: ResponseHeaders;
  text: string;
}

/** Why an exchange got no whole answer: undici's error (or the signal's reason), and whether the answer had begun. */
export class ExchangeFailure {
  constructor(
    readonly error: unknown,
    readonly answering: boolean,
  ) {}
}

/**
 * One request through `dispatcher.dispatch`, read into a string: no per-request AbortController,
 * interceptor, response stream or async resource (what undici's `request()` builds around the same
 * dispatch). The handler speaks the dispatcher's own callbacks (onConnect, onHeaders, onData,
 * onComplete, onError), so undici wraps it in no adapter and parses no header list per request: the
 * answer's headers are parsed when read (only an error reads them). `onStart` is called when the
 * request is handed to a socket to be written, not when it is aborted at that point (until then it
 * certainly has not left). `signal` aborts it: a queued request is aborted as it reaches its socket
 * (before any byte is written), one under way is cut. Rejects with an ExchangeFailure.
 */
export function exchange(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, signal: AbortSignal | undefined, onStart: () => void): Promise<Exchanged> {
  return new Promise<Exchanged>((resolve, reject) => {
    const handler = new ExchangeHandler(resolve, reject, signal, onStart);
    try {
      dispatcher.dispatch(options, handler);
    } catch (err) {
      handler.onError(err as Error);
    }
  });
}

/** An answer whose header list is parsed (as undici's handlers get it) only when read. */
class Answered implements Exchanged {
  private parsed: ResponseHeaders | undefined;

  constructor(
    readonly statusCode: number,
    private readonly rawHeaders: RawHeaders,
    readonly text: string,
  ) {}

  get headers(): ResponseHeaders {
    this.parsed ??= this.rawHeaders === undefined ? {} : (util.parseHeaders(this.rawHeaders) as ResponseHeaders);
    return this.parsed;
  }
}

type RawHeaders = Buffer[] | string[] | undefined;

class ExchangeHandler implements Dispatcher.DispatchHandler {
  private abortRequest: ((err?: Error) => void) | undefined;
  /** Set when the signal aborted before the request reached a socket. */
  private reason: unknown;
  private aborted = false;
  private statusCode = 0;
  private rawHeaders: RawHeaders;
  private readonly chunks: Buffer[] = [];
  private answering = false;
  private settled = false;
  private readonly forget: () => void;

  constructor(
    private readonly resolve: (answer: Exchanged) => void,
    private readonly reject: (failure: ExchangeFailure) => void,
    signal: AbortSignal | undefined,
    private readonly onStart: () => void,
  ) {
    this.forget = signal ? onAbort(signal, () => this.abort(signal.reason)) : noop;
  }

  private abort(reason: unknown): void {
    if (this.abortRequest) this.abortRequest(reason as Error);
    else {
      this.aborted = true;
      this.reason = reason;
    }
  }

  onConnect(abort: (err?: Error) => void): void {
    this.abortRequest = abort;
    if (this.aborted) abort(this.reason as Error);
    else this.onStart();
  }

  onHeaders(statusCode: number, headers: Buffer[], _resume: () => void, _statusText: string): boolean {
    if (statusCode < 200) return true; // 1xx: informational, the answer is still to come
    this.statusCode = statusCode;
    this.rawHeaders = headers;
    this.answering = true;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(_trailers: string[] | null): void {
    if (this.settled) return;
    this.settled = true;
    this.forget();
    this.resolve(new Answered(this.statusCode, this.rawHeaders, utf8(this.chunks)));
  }

  onError(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.forget();
    this.reject(new ExchangeFailure(error, this.answering));
  }
}

function noop(): void {}

/** The chunks as UTF-8 text without a leading byte-order mark (as undici's `body.text()` reads them). */
function utf8(chunks: readonly Buffer[]): string {
  if (chunks.length === 0) return '';
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  const start = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  return bytes.toString('utf8', start);
}
