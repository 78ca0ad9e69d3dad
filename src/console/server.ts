/**
 * The console's HTTP server: the routes on Node's http server (through @hono/node-server), listening on
 * one address, closed with every connection (a page's polling keeps one open).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { storeWatch } from '../app/index.js';
import type { StateStore } from '../checkpoint/index.js';
import { storeHealth } from '../webhook/index.js';
import { access } from './access.js';
import { consoleRoutes } from './routes.js';

export interface ConsoleOptions {
  store: StateStore;
  port: number;
  host: string;
  /** OUTREACH_CONSOLE_TOKEN: with it, every page asks for it. The caller refuses an address off loopback without one. */
  token?: string;
  /** Where the store is, for people (never a password). */
  location: string;
  /** This machine's name, as the store records a run's host: a run on it can be stopped from here. */
  thisHost: string;
  /** Sends the stop (one SIGTERM) to a process of this host; false when no process of ours has that pid. */
  signal: (pid: number) => boolean;
  /** The zone the pages show times in (default: this machine's). */
  zone?: string;
  /** The locale of the pages' figures and times, e.g. pt-BR (default: none, as in English, dates year first); the CSV never changes. */
  locale?: string;
  clock?: () => number;
  /** A failure that is not a person's to fix (a bug), for the log. */
  onError?: (err: unknown) => void;
}

export interface RunningConsole {
  /** `http://127.0.0.1:8790` (the port it got, with port 0). */
  readonly url: string;
  close(): Promise<void>;
}

export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const clock = options.clock ?? Date.now;
  const app = consoleRoutes({
    watch: storeWatch(options.store, { clock }),
    access: access({ ...(options.token !== undefined && { token: options.token }), clock }),
    health: storeHealth(options.store, { clock }),
    location: options.location,
    thisHost: options.thisHost,
    signal: options.signal,
    zone: options.zone ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
    locale: options.locale,
    clock,
    onError: options.onError ?? (() => undefined),
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${address.port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
