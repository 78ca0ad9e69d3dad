import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  CONTROL_PREFIX,
  MAX_BODY_BYTES,
  RATE_LIMITED_MESSAGE,
  STATUS_INVALID,
  STATUS_METHOD_NOT_ALLOWED,
  STATUS_NOT_FOUND,
  STATUS_RATE_LIMITED,
  STATUS_TOO_LARGE,
  STATUS_UNAUTHENTICATED,
  UNAUTHENTICATED_MESSAGE,
} from './assumptions.js';
import { controlRouter } from './controls.js';
import type { SimCore } from './core.js';
import { fail, HttpError, type Reply } from './http.js';
import { RateLimiter } from './rate-limit.js';
import { Router, type Match } from './router.js';
import { apiRoutes } from './routes/index.js';
import type { RequestLogEntry, SimDelay } from './types.js';

const apiRouter = new Router(apiRoutes);

/**
 * The HTTP face. An API request goes: route match → rate limit (429, nothing done) → drop before
 * processing → read body → latency (S50) → 404/405 → auth (401) → JSON (422) → delivery statuses due by
 * the clock (S53) → route → drop after processing or answer. /__sim/ requests skip auth, faults and the log.
 */
export function createSimServer(core: SimCore, token: string, delay: SimDelay = timerDelay): { server: Server; shutdown(): void } {
  const expectedAuth = `Bearer ${token}`;
  const pending = new Set<() => void>();
  let limit = 0;
  let limiter: RateLimiter | undefined;

  function currentLimiter(): RateLimiter | undefined {
    const wanted = core.faults.get().rateLimitPerSecond;
    if (wanted !== limit) {
      limit = wanted;
      limiter = wanted > 0 ? new RateLimiter(wanted) : undefined;
    }
    return limiter;
  }

  function authorised(req: IncomingMessage): boolean {
    const header = req.headers.authorization;
    if (header === expectedAuth) return true;
    const m = header ? /^bearer\s+(.+)$/i.exec(header.trim()) : null;
    return m !== null && m[1] === token;
  }

  function api(req: IncomingMessage, res: ServerResponse, method: string, path: string, query: URLSearchParams | null) {
    const wall = core.clock.wall();
    const match = apiRouter.match(method, path);
    const endpoint = match.kind === 'route' ? match.route.key : 'unknown';
    const entry: RequestLogEntry = { method, path, body: undefined, status: 0, endpoint, at: core.clock.now(), wall };
    if (query) entry.query = Object.fromEntries(query);
    core.log.arrive(wall, endpoint);

    const retryAfter = currentLimiter()?.take(wall) ?? 0;
    if (retryAfter > 0) {
      req.resume();
      const reply = fail(STATUS_RATE_LIMITED, RATE_LIMITED_MESSAGE);
      reply.headers = { 'retry-after': String(retryAfter) };
      return finish(res, reply, entry, false);
    }
    core.log.acceptedByLimiter(wall);

    const faults = core.faults.get();
    const drop = core.faults.drawDrop();
    if (drop && !faults.dropAfterProcessing) {
      entry.dropped = true;
      core.log.finish(entry);
      req.socket.destroy();
      return;
    }
    const latency = core.faults.drawLatency();
    if (latency > 0) entry.latencyMs = latency;
    readBody(req, (tooLarge, raw) => {
      const run = () => {
        const reply = tooLarge ? fail(STATUS_TOO_LARGE, 'The request body is too large.') : process(req, match, query, raw, entry);
        finish(res, reply, entry, drop);
      };
      // A timer per request, never a wait: thousands of delayed requests cost only their timers.
      if (latency > 0) {
        const held = { answered: false, cancel: () => undefined as void };
        held.cancel = delay(() => {
          held.answered = true;
          pending.delete(held.cancel);
          run();
        }, latency);
        if (!held.answered) pending.add(held.cancel);
      } else run();
    });
  }

  function process(req: IncomingMessage, match: Match, query: URLSearchParams | null, raw: Buffer, entry: RequestLogEntry): Reply {
    if (match.kind === 'none') return fail(STATUS_NOT_FOUND, `The route ${entry.path} could not be found.`);
    if (match.kind === 'method-not-allowed')
      return fail(STATUS_METHOD_NOT_ALLOWED, `The ${entry.method} method is not supported for route ${entry.path}.`);
    if (!authorised(req)) return fail(STATUS_UNAUTHENTICATED, UNAUTHENTICATED_MESSAGE);
    const parsed = parseJson(raw);
    if (!parsed.ok) return fail(STATUS_INVALID, 'The request body is not valid JSON.');
    entry.body = parsed.value;
    core.delivery.catchUp(core.clock.now());
    return run(() => match.route.handler({ core, params: match.params, query, body: parsed.value }));
  }

  function finish(res: ServerResponse, reply: Reply, entry: RequestLogEntry, drop: boolean): void {
    entry.status = reply.status;
    if (drop) {
      entry.dropped = true;
      core.log.finish(entry);
      res.socket?.destroy();
      return;
    }
    core.log.finish(entry);
    write(res, reply);
  }

  function control(req: IncomingMessage, res: ServerResponse, method: string, path: string, query: URLSearchParams | null) {
    readBody(req, (tooLarge, raw) => {
      if (tooLarge) return write(res, fail(STATUS_TOO_LARGE, 'The request body is too large.'));
      const match = controlRouter.match(method, path);
      if (match.kind !== 'route') return write(res, fail(STATUS_NOT_FOUND, `No simulator control ${method} ${path}.`));
      const parsed = parseJson(raw);
      if (!parsed.ok) return write(res, fail(STATUS_INVALID, 'The request body is not valid JSON.'));
      core.delivery.catchUp(core.clock.now());
      write(res, run(() => match.route.handler({ core, params: match.params, query, body: parsed.value })));
    });
  }

  const server = createServer((req, res) => {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const query = q < 0 ? null : new URLSearchParams(rawUrl.slice(q + 1));
    const method = req.method ?? 'GET';
    if (path.startsWith(CONTROL_PREFIX)) control(req, res, method, path, query);
    else api(req, res, method, path, query);
  });
  server.keepAliveTimeout = 10_000;

  return {
    server,
    shutdown() {
      for (const cancel of pending) cancel();
      pending.clear();
    },
  };
}

function timerDelay(answer: () => void, ms: number): () => void {
  const timer = setTimeout(answer, ms);
  return () => clearTimeout(timer);
}

function run(handler: () => Reply): Reply {
  try {
    return handler();
  } catch (err) {
    if (err instanceof HttpError) return fail(err.status, err.message);
    return fail(500, `Simulator error: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function parseJson(raw: Buffer): { ok: true; value: unknown } | { ok: false } {
  if (raw.length === 0) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

function readBody(req: IncomingMessage, done: (tooLarge: boolean, raw: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => done(size > MAX_BODY_BYTES, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
  req.on('error', () => {});
}

function write(res: ServerResponse, reply: Reply): void {
  if (res.destroyed) return;
  const payload = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(payload),
    ...reply.headers,
  });
  res.end(payload);
}
