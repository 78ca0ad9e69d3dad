import { readFileSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPool, H2_STREAMS } from '../../src/api/pool.js';

const tlsFile = (name: string) => readFileSync(new URL(`../fixtures/tls/${name}`, import.meta.url));
const cert = tlsFile('localhost-cert.pem');

/** An HTTPS server speaking HTTP/2 and HTTP/1.1 (ALPN decides) that answers after `delayMs`, counting its TLS connections. */
async function server(delayMs: number): Promise<{ origin: string; connections: () => number; mostAtOnceOnOne: () => number; versions: string[]; close: () => Promise<void> }> {
  const versions: string[] = [];
  let connections = 0;
  const active = new Map<object, number>();
  let most = 0;
  const srv: Http2SecureServer = createSecureServer({ key: tlsFile('localhost-key.pem'), cert, allowHTTP1: true }, (req, res) => {
    versions.push(req.httpVersion);
    const connection: object = req.httpVersion === '2.0' ? req.stream.session ?? req.socket : req.socket;
    active.set(connection, (active.get(connection) ?? 0) + 1);
    most = Math.max(most, active.get(connection) ?? 0);
    setTimeout(() => {
      active.set(connection, (active.get(connection) ?? 1) - 1);
      res.end('{"success":true}');
    }, delayMs);
  });
  srv.on('secureConnection', () => (connections += 1));
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  return {
    origin: `https://localhost:${port}`,
    connections: () => connections,
    mostAtOnceOnOne: () => most,
    versions,
    close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
  };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** One request first (the pool learns the protocol as a run's first requests do), then `requests` at once. */
async function fire(origin: string, allowH2: boolean, requests: number, method: 'GET' | 'POST' = 'POST') {
  const pool = createPool(origin, { connections: requests, connectTimeoutMs: 5_000, headersTimeoutMs: 5_000, bodyTimeoutMs: 5_000, allowH2, tls: { ca: cert } });
  closers.push(() => pool.close());
  const one = async () => {
    const res = await pool.request(
      method === 'POST' ? { origin, path: '/', method, body: '{}', headers: { 'content-type': 'application/json' } } : { origin, path: '/', method },
    );
    return res.body.text();
  };
  await one();
  return Promise.all(Array.from({ length: requests }, one));
}

describe('createPool', () => {
  it('carries many lookups at once over one HTTP/2 connection when the platform offers HTTP/2', async () => {
    const s = await server(200);
    closers.push(s.close);
    const answers = await fire(s.origin, true, 40, 'GET');
    expect(answers.every((a) => a === '{"success":true}')).toBe(true);
    expect(s.versions.every((v) => v === '2.0')).toBe(true);
    expect(s.connections()).toBe(Math.ceil(40 / H2_STREAMS));
    expect(s.mostAtOnceOnOne()).toBe(40);
  });

  it('never puts two sends on one HTTP/2 connection at once (undici would resend the others if the connection went away)', async () => {
    const s = await server(200);
    closers.push(s.close);
    const answers = await fire(s.origin, true, 20, 'POST');
    expect(answers).toHaveLength(20);
    expect(s.versions.every((v) => v === '2.0')).toBe(true);
    expect(s.mostAtOnceOnOne()).toBe(1);
    expect(s.connections()).toBeGreaterThanOrEqual(19);
  });

  it('opens a connection per request in flight on HTTP/1.1 (http2 off)', async () => {
    const s = await server(200);
    closers.push(s.close);
    const answers = await fire(s.origin, false, 20);
    expect(answers).toHaveLength(20);
    expect(s.versions.every((v) => v === '1.1')).toBe(true);
    expect(s.connections()).toBe(20);
    expect(s.mostAtOnceOnOne()).toBe(1);
    expect(s.versions).toHaveLength(21);
  });
});
