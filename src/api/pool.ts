import type { ConnectionOptions, TLSSocket } from 'node:tls';
import { Client, Pool, buildConnector, type Dispatcher } from 'undici';

/** Requests one HTTP/2 connection carries at once (undici's default for a session; the server may lower it). */
export const H2_STREAMS = 100;

export interface PoolSettings {
  /** The most connections: the run's most requests in flight. undici opens them as requests need them. */
  connections: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Offer HTTP/2 in the TLS handshake (ALPN); a platform that takes it carries many requests per connection. */
  allowH2: boolean;
  /** Extra TLS options (tests: the certificate authority of a local server). */
  tls?: ConnectionOptions;
}

/**
 * The one connection pool to the platform's origin. HTTP/1.1 connections carry one request at a time
 * (pipelining 1: a POST is never queued behind another on a socket). With `allowH2`, each connection
 * that the server answers in HTTP/2 is told, once connected, to carry up to H2_STREAMS requests at
 * once; one that stays on HTTP/1.1 keeps carrying one. undici opens connections only as requests
 * wait for one, so their number follows the requests in flight.
 */
export function createPool(origin: string, s: PoolSettings): Dispatcher {
  const common = { connections: s.connections, headersTimeout: s.headersTimeoutMs, bodyTimeout: s.bodyTimeoutMs };
  if (!s.allowH2) return new Pool(origin, { ...common, pipelining: 1, connect: { timeout: s.connectTimeoutMs, ...s.tls } });
  return new Pool(origin, {
    ...common,
    factory: (o, opts) => h2AwareClient(o, opts, s),
  });
}

function h2AwareClient(origin: string | URL, opts: object, s: PoolSettings): Client {
  const connect = buildConnector({ timeout: s.connectTimeoutMs, allowH2: true, ...s.tls });
  let h2 = false;
  const client = new Client(origin, {
    ...opts,
    allowH2: true,
    maxConcurrentStreams: H2_STREAMS,
    pipelining: 1,
    connect(options, callback) {
      connect(options, (...args) => {
        // On a failed connect the callback gets the error alone: no socket.
        const socket = args[1] as Partial<TLSSocket> | null | undefined;
        h2 = socket?.alpnProtocol === 'h2';
        callback(...args);
      });
    },
  });
  client.on('connect', () => {
    client.pipelining = h2 ? H2_STREAMS : 1;
  });
  return client;
}
