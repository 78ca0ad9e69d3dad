import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { MockAgent } from 'undici';
import { type ApiClient, createApiClient } from '../../src/api/index.js';

export const TOKEN = 'tok_4f9c2a7e1b8d3f60a5c9e2d7b1f4a8c3';
export const ORIGIN = 'http://platform.test';

/** A client over a MockAgent that refuses real connections; base URL with a path prefix. */
export function mockedClient(): { api: ApiClient; agent: MockAgent; pool: ReturnType<MockAgent['get']> } {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const api = createApiClient({ baseUrl: `${ORIGIN}/api/`, token: TOKEN, dispatcher: agent });
  return { api, agent, pool: agent.get(ORIGIN) };
}

/** A loopback HTTP server for the duration of a test. */
export async function httpServer(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A raw TCP server whose connection handler decides what to do with each socket. */
export async function tcpServer(onSocket: (socket: net.Socket) => void): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onSocket(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound once, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** Awaits a promise expected to reject and returns the rejection. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail, it succeeded');
}
