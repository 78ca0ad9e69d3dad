/**
 * The webhook receiver: a node:http server for the platform's signed `chat.message` deliveries.
 *
 * For each request, in this order: POST only (405) → body up to 1 MiB (413) → signature over the
 * raw bytes (401) → shape (400) → durable record in the store, or, when the store cannot take it
 * within the budget, in the spool (intake.ts) → 200; 500 only when neither could keep it.
 * Nothing is stored before the signature and shape pass. After answering (the platform waits
 * 10 s at most and never retries): the window store is written and the client's phone looked up.
 * Any path is accepted (the URL is whatever was registered); any content type too (A26), except the
 * GET /healthz and GET /metrics the receiver was given.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import type { RecordedEvent } from '../checkpoint/index.js';
import { openIntake, type SpoolHealth } from './intake.js';
import { DEFAULT_KEYWORDS, type InboundKeywords } from './keywords.js';
import { parseChatMessage } from './parse-event.js';
import type { ClientReader } from './platform.js';
import { readBody } from './read-body.js';
import { SIGNATURE_HEADER, verifySignature } from './signature.js';
import { healthLine, healthStatus, type HealthSource } from './health.js';
import type { Sleep } from './spool-drain.js';
import type { StateStore } from '../checkpoint/index.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface ReceiverOptions {
  /** 0 picks a free port (see `url`). */
  port: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The webhook's signing secret. */
  secret: string;
  /** Where events and windows are kept. */
  store: StateStore;
  /** For phone look-ups (`GET /client/{id}`); without it phones come only from links and `knownPhones`. */
  api?: ClientReader;
  logger?: Logger;
  /** Phones known from jobs' checkpoints, by client id. */
  knownPhones?: (clientId: string) => string | undefined;
  /** Opt-out and opt-in keywords (default: the built-in lists; the CLI reads OUTREACH_OPTOUT_KEYWORDS). */
  keywords?: InboundKeywords;
  /** Called once the event is recorded in the store (`isNew` false for a repeated delivery): at once, or when applied from the spool. */
  onEvent?: (event: RecordedEvent, isNew: boolean) => void;
  /** The company of a message no job's conversation and no single company of the store tells (`--company`). */
  company?: number;
  /** Where events wait while the store cannot take them (`--spool`); without it such a delivery is answered 500. */
  spoolDir?: string;
  /** How long one store operation may take before the event goes to the spool (default 4,000 ms). */
  storeTimeoutMs?: number;
  /** The wait between two tries of the store while events are spooled (default: a timer). */
  sleep?: Sleep;
  /** Answers GET /healthz; without it that path is a delivery like any other. */
  health?: HealthSource;
  /** Answers GET /metrics with the text exposition format; without it that path is a delivery like any other. */
  metrics?: () => Promise<{ contentType: string; text: string }>;
  /** Told what became of each delivery (the metrics count them). */
  onDelivery?: (result: DeliveryResult) => void;
  /** Told each phone an opt-out reply put on the suppression list (at once, or when applied from the spool). */
  onOptOut?: (phone: string) => void;
}

/**
 * What became of one delivery: recorded, a message already recorded, refused for its signature, not
 * a chat.message or too large (`invalid`), not stored nor spooled (`failed`), or kept in the spool
 * while the store is down (`spooled`).
 */
export type DeliveryResult = 'accepted' | 'duplicate' | 'bad_signature' | 'invalid' | 'failed' | 'spooled';

export interface ReceiverStats {
  /** Requests of any kind. */
  requests: number;
  /** New messages recorded. */
  recorded: number;
  /** Valid deliveries of a message already recorded. */
  duplicates: number;
  unauthorized: number;
  badRequest: number;
  tooLarge: number;
  methodNotAllowed: number;
  /** Deliveries refused because the event could not be stored (nor spooled). */
  storeFailures: number;
  /** Deliveries answered 200 and kept in the spool, the store not taking them then. */
  spooled: number;
  /** Spooled events applied to the store since the start (those left by an earlier process included). */
  appliedFromSpool: number;
  /** Lines of the spool skipped at the start (torn by a crash). */
  spoolLinesSkipped: number;
  phoneLookups: number;
  phoneLookupFailures: number;
}

export interface Receiver {
  /** `http://host:port`, with the port actually bound. */
  url: string;
  stats: ReceiverStats;
  /** Resolves when the work done after answering (window writes, look-ups) is finished. */
  settled(): Promise<void>;
  /** The store as last seen and the spool: whether events are being spooled, how many wait, and why. */
  health(): SpoolHealth;
  /** Resolves when nothing waits in the spool and the store is open (never while the store stays down). */
  drained(): Promise<void>;
  /** Stops accepting, finishes requests and background work, flushes and closes the files. */
  close(): Promise<void>;
}

export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  if (!options.secret) throw new Error('startReceiver: the signing secret is empty');
  const host = options.host ?? '127.0.0.1';
  const logger = options.logger ?? pino({ level: 'silent' });
  const keywords = options.keywords ?? DEFAULT_KEYWORDS;
  const intake = await openIntake({
    store: options.store,
    keywords,
    logger,
    ...(options.api ? { api: options.api } : {}),
    ...(options.knownPhones ? { knownPhones: options.knownPhones } : {}),
    ...(options.company !== undefined && { company: options.company }),
    ...(options.spoolDir !== undefined && { spoolDir: options.spoolDir }),
    ...(options.storeTimeoutMs !== undefined && { storeTimeoutMs: options.storeTimeoutMs }),
    ...(options.sleep !== undefined && { sleep: options.sleep }),
    ...(options.onEvent !== undefined && { onEvent: options.onEvent }),
    ...(options.onOptOut !== undefined && { onOptOut: options.onOptOut }),
  });
  const stats: ReceiverStats = {
    requests: 0,
    recorded: 0,
    duplicates: 0,
    unauthorized: 0,
    badRequest: 0,
    tooLarge: 0,
    methodNotAllowed: 0,
    storeFailures: 0,
    spooled: 0,
    get appliedFromSpool() {
      return intake.counts.applied;
    },
    get spoolLinesSkipped() {
      return intake.counts.skippedLines;
    },
    get phoneLookups() {
      return intake.phones.stats.requests;
    },
    get phoneLookupFailures() {
      return intake.phones.stats.failures;
    },
  };

  const told = (result: DeliveryResult) => {
    try {
      options.onDelivery?.(result);
    } catch (err) {
      logger.error({ err }, 'onDelivery callback failed');
    }
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.requests += 1;
    if (req.method === 'GET' || req.method === 'HEAD') {
      const served = await serveGet(req, res, options);
      if (served) return;
    }
    if (req.method !== 'POST') {
      stats.methodNotAllowed += 1;
      return reply(res, 405, { ok: false, error: 'only POST is accepted' }, { Allow: 'POST' });
    }
    const body = await readBody(req, MAX_BODY_BYTES);
    if (!body.ok) {
      if (body.reason === 'aborted') return void req.socket.destroy();
      stats.tooLarge += 1;
      told('invalid');
      logger.warn({ event: 'webhook_refused', reason: 'too_large', contentLength: req.headers['content-length'] }, 'webhook refused: body over 1 MiB');
      return reply(res, 413, { ok: false, error: 'body over 1 MiB' }, { Connection: 'close' });
    }
    const signature = req.headers[SIGNATURE_HEADER];
    if (!verifySignature(body.body, typeof signature === 'string' ? signature : undefined, options.secret)) {
      stats.unauthorized += 1;
      told('bad_signature');
      logger.warn({ event: 'webhook_refused', reason: 'bad_signature', hasSignature: signature !== undefined }, 'webhook refused: missing or wrong signature');
      return reply(res, 401, { ok: false, error: 'invalid signature' });
    }
    const parsed = parseChatMessage(body.body);
    if (!parsed.ok) {
      stats.badRequest += 1;
      told('invalid');
      logger.warn({ event: 'webhook_refused', reason: parsed.reason }, 'webhook refused: not a chat.message event');
      return reply(res, 400, { ok: false, error: parsed.reason });
    }
    const message = parsed.event;
    const accepted = await intake.accept(message);
    if (accepted.result === 'failed') {
      stats.storeFailures += 1;
      told('failed');
      logger.error({ event: 'webhook_store_failed', err: accepted.error, messageId: message.messageId }, 'webhook event could not be stored; `outreach sync` will recover it');
      return reply(res, 500, { ok: false, error: 'could not store the event' });
    }
    if (accepted.result === 'accepted') stats.recorded += 1;
    else if (accepted.result === 'duplicate') stats.duplicates += 1;
    else stats.spooled += 1;
    told(accepted.result);
    reply(res, 200, { ok: true });
    logger.info(
      { event: 'webhook_event', messageId: message.messageId, clientId: message.clientId, direction: message.direction, new: accepted.result !== 'duplicate', spooled: accepted.result === 'spooled' },
      accepted.result === 'spooled' ? 'webhook event kept in the spool' : 'webhook event recorded',
    );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      logger.error({ err }, 'webhook request failed');
      if (!res.headersSent) reply(res, 500, { ok: false, error: 'internal error' });
      else res.destroy();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await intake.close();
    throw err;
  }
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    stats,
    settled: () => intake.settled(),
    health: () => intake.health(),
    drained: () => intake.drained(),
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        // Requests in progress get a moment to finish; kept-alive sockets are then cut.
        const cut = setTimeout(() => server.closeAllConnections(), 2_000);
        cut.unref();
        await stopped;
        clearTimeout(cut);
        await intake.close();
      })();
      return closing;
    },
  };
}

/** GET /healthz and GET /metrics, when the receiver was given them; false for any other GET (a delivery's path). */
async function serveGet(req: IncomingMessage, res: ServerResponse, options: Pick<ReceiverOptions, 'health' | 'metrics'>): Promise<boolean> {
  const route = (req.url ?? '/').split('?')[0];
  if (route === '/healthz' && options.health) {
    const health = await options.health.check();
    answer(res, req, healthStatus(health), 'text/plain; charset=utf-8', healthLine(health));
    return true;
  }
  if (route === '/metrics' && options.metrics) {
    const { contentType, text } = await options.metrics();
    answer(res, req, 200, contentType, text);
    return true;
  }
  return false;
}

/** A text answer (its headers only, for HEAD); never cached: each probe and scrape asks anew. */
function answer(res: ServerResponse, req: IncomingMessage, status: number, contentType: string, text: string): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : text);
}

function reply(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
