/**
 * The webhook receiver: a node:http server for the platform's signed `chat.message` deliveries.
 *
 * For each request, in this order: POST only (405) → body up to 1 MiB (413) → signature over the
 * raw bytes (401) → shape (400) → durable record in the store, or, when the store cannot take it
 * within the budget, in the spool (intake.ts) → 200; 500 only when neither could keep it.
 * Nothing is stored before the signature and shape pass. After answering (the platform waits
 * 10 s at most and never retries): the window store is written and the client's phone looked up.
 * Any path is accepted (the URL is whatever was registered); any content type too (A26).
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
}

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

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.requests += 1;
    if (req.method !== 'POST') {
      stats.methodNotAllowed += 1;
      return reply(res, 405, { ok: false, error: 'only POST is accepted' }, { Allow: 'POST' });
    }
    const body = await readBody(req, MAX_BODY_BYTES);
    if (!body.ok) {
      if (body.reason === 'aborted') return void req.socket.destroy();
      stats.tooLarge += 1;
      logger.warn({ contentLength: req.headers['content-length'] }, 'webhook refused: body over 1 MiB');
      return reply(res, 413, { ok: false, error: 'body over 1 MiB' }, { Connection: 'close' });
    }
    const signature = req.headers[SIGNATURE_HEADER];
    if (!verifySignature(body.body, typeof signature === 'string' ? signature : undefined, options.secret)) {
      stats.unauthorized += 1;
      logger.warn({ hasSignature: signature !== undefined }, 'webhook refused: missing or wrong signature');
      return reply(res, 401, { ok: false, error: 'invalid signature' });
    }
    const parsed = parseChatMessage(body.body);
    if (!parsed.ok) {
      stats.badRequest += 1;
      logger.warn({ reason: parsed.reason }, 'webhook refused: not a chat.message event');
      return reply(res, 400, { ok: false, error: parsed.reason });
    }
    const message = parsed.event;
    const accepted = await intake.accept(message);
    if (accepted.result === 'failed') {
      stats.storeFailures += 1;
      logger.error({ err: accepted.error, messageId: message.messageId }, 'webhook event could not be stored; `outreach sync` will recover it');
      return reply(res, 500, { ok: false, error: 'could not store the event' });
    }
    if (accepted.result === 'accepted') stats.recorded += 1;
    else if (accepted.result === 'duplicate') stats.duplicates += 1;
    else stats.spooled += 1;
    reply(res, 200, { ok: true });
    logger.info(
      { messageId: message.messageId, clientId: message.clientId, direction: message.direction, new: accepted.result !== 'duplicate', spooled: accepted.result === 'spooled' },
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

function reply(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
