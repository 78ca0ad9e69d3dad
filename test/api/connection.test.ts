import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, ValidationError, createApiClient, type ApiClient } from '../../src/api/index.js';
import { toConnectionError } from '../../src/api/connection-error.js';
import { TOKEN, closedPort, httpServer, rejection, tcpServer } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function client(url: string, options: Partial<Parameters<typeof createApiClient>[0]> = {}): ApiClient {
  const api = createApiClient({ baseUrl: url, token: TOKEN, ...options });
  cleanups.push(() => api.close());
  return api;
}

async function server(handler: http.RequestListener) {
  const s = await httpServer(handler);
  cleanups.push(s.close);
  return s;
}

/** Accepts connections and reads requests but never answers; `onBytes` hears each chunk of a request arriving. */
async function silentServer(onBytes: () => void = () => {}) {
  const s = await tcpServer((socket) => socket.on('data', onBytes).resume());
  cleanups.push(s.close);
  return s;
}

function expectConnectionError(err: unknown, fields: Partial<ConnectionError>): void {
  expect(err).toBeInstanceOf(ConnectionError);
  expect(err).toMatchObject(fields);
  expect((err as Error).message).not.toContain(TOKEN);
}

describe('ConnectionError.sent', () => {
  it('is false when the connection is refused', async () => {
    const port = await closedPort();
    const api = client(`http://127.0.0.1:${port}`);
    const err = await rejection(api.startWhatsapp({ channel_id: 12, phone: '+15550001', send_type: 'text', text: 'hi' }));
    expectConnectionError(err, { sent: false, aborted: false, code: 'ECONNREFUSED', status: 0 });
    expect((err as Error).message).toContain('it was not sent');
  });

  it('is true when the server accepts the request and then closes the socket', async () => {
    const s = await tcpServer((socket) => socket.once('data', () => socket.destroy()));
    cleanups.push(s.close);
    const api = client(s.url);
    const err = await rejection(api.sendMessage(1, { content: 'hi' }));
    expectConnectionError(err, { sent: true, aborted: false, code: 'UND_ERR_SOCKET' });
    expect((err as Error).message).toContain('it may have reached the platform');
  });

  it('is true when no answer comes within the headers timeout', async () => {
    const s = await silentServer();
    const api = client(s.url, { headersTimeoutMs: 150 });
    const err = await rejection(api.sendMessage(1, { content: 'hi' }));
    expectConnectionError(err, { sent: true, aborted: false, code: 'UND_ERR_HEADERS_TIMEOUT' });
  });

  it('is true when the body stalls past the body timeout', async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success": true, "data": ');
    });
    const api = client(s.url, { bodyTimeoutMs: 150 });
    const err = await rejection(api.listChannels(1));
    expectConnectionError(err, { sent: true, code: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('is true, with aborted, when the caller aborts a request in flight', async () => {
    const controller = new AbortController();
    // Aborted once the request's bytes reached the server: it is in flight, however slow the machine.
    const s = await silentServer(() => controller.abort());
    const api = client(s.url);
    const err = await rejection(api.sendMessage(1, { content: 'hi' }, { signal: controller.signal }));
    expectConnectionError(err, { sent: true, aborted: true });
  });

  it('is false, with aborted, when the caller aborts a request still queued in the pool', async () => {
    const controller = new AbortController();
    // Aborted once the first request reached the server: the second waits behind it on the one connection.
    const s = await silentServer(() => controller.abort());
    const api = client(s.url, { connections: 1, headersTimeoutMs: 500 });
    const first = api.sendMessage(1, { content: 'first' });
    first.catch(() => {});
    const second = api.sendMessage(1, { content: 'second' }, { signal: controller.signal });
    expectConnectionError(await rejection(second), { sent: false, aborted: true });
    expectConnectionError(await rejection(first), { sent: true, aborted: false });
  });

  it('is false for a connect timeout or a DNS failure', () => {
    const at = { method: 'POST', path: '/x', started: undefined, signal: undefined };
    const timeout = Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
    expect(toConnectionError(timeout, at)).toMatchObject({ sent: false, code: 'UND_ERR_CONNECT_TIMEOUT' });
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' });
    expect(toConnectionError(dns, at)).toMatchObject({ sent: false });
    const again = new AggregateError([Object.assign(new Error('x'), { code: 'EAI_AGAIN' })]);
    expect(toConnectionError(again, at)).toMatchObject({ sent: false, code: 'EAI_AGAIN' });
    const unknown = new Error('something odd');
    expect(toConnectionError(unknown, at)).toMatchObject({ sent: true });
  });

  it('is true for a "not sent" code once the request was handed to a socket (keep-alive, bytes written)', () => {
    const started = { method: 'POST', path: '/x', started: true, signal: undefined };
    for (const code of ['EHOSTUNREACH', 'ENETUNREACH', 'ECONNREFUSED']) {
      const err = Object.assign(new Error(`write ${code}`), { code });
      expect(toConnectionError(err, started)).toMatchObject({ sent: true, code });
      expect(toConnectionError(err, started).message).toContain('it may have reached the platform');
    }
    const notStarted = { ...started, started: false };
    expect(toConnectionError(new Error('something odd'), notStarted)).toMatchObject({ sent: false });
  });
});

describe('response bodies', () => {
  it('are drained on errors, so one keep-alive connection serves every call', async () => {
    const sockets = new Set<unknown>();
    let calls = 0;
    const s = await server((req, res) => {
      sockets.add(req.socket);
      calls += 1;
      const status = calls <= 5 ? 422 : 200;
      const body =
        status === 422
          ? { success: false, message: 'invalid', padding: 'x'.repeat(256 * 1024) }
          : { success: true, data: [{ id: 10, name: 'Main', type: 'wba', status: 1 }] };
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    const api = client(s.url, { connections: 1 });
    for (let i = 0; i < 5; i++) expect(await rejection(api.listChannels(1))).toBeInstanceOf(ValidationError);
    expect(await api.listChannels(1)).toHaveLength(1);
    expect(sockets.size).toBe(1);
  });

  it('keep the base URL path prefix and send the bearer token over the wire', async () => {
    const seen: { url?: string; auth?: string }[] = [];
    const s = await server((req, res) => {
      seen.push({ url: req.url, auth: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, data: [] }));
    });
    const api = client(`${s.url}/integration/v1/`);
    await api.listTemplates({ status: 'APPROVED' });
    expect(seen).toEqual([{ url: '/integration/v1/wba/templates?status=APPROVED', auth: `Bearer ${TOKEN}` }]);
  });
});
