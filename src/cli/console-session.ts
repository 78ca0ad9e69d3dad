import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { isLoopback, startConsole } from '../console/index.js';
import type { ForPeople } from '../locale/people.js';
import { CliError } from './exit.js';
import { localeOption, zoneOption } from './format/time.js';
import { openStore, shownWhere, storeWhere, type StoreFlags, type StoreWhere } from './store-root.js';
import { terminate } from './stop-signal.js';

/** The console's documented default port (the webhook's is 8787, the simulator's 8780). */
export const DEFAULT_CONSOLE_PORT = 8790;

export interface ConsoleFlags extends StoreFlags {
  port: string;
  host: string;
  tz?: string;
  locale?: string;
}

export interface ConsoleSettings {
  port: number;
  host: string;
  store: StoreWhere;
  /** OUTREACH_CONSOLE_TOKEN; required off loopback. Never printed. */
  token?: string;
  /** How the pages write figures and times: `--locale` (else LC_ALL, else LANG), in the zone of `--tz` (else TZ, else this machine's). */
  people: ForPeople;
}

/**
 * Flags and environment folded into the console's settings. An address off this machine's loopback
 * needs OUTREACH_CONSOLE_TOKEN (the console then asks every visitor for it); without it the console
 * does not start (a one-sentence CliError, exit 2).
 */
export function consoleSettings(flags: ConsoleFlags, env: NodeJS.ProcessEnv = process.env): ConsoleSettings {
  if (!/^\d+$/.test(flags.port) || Number(flags.port) > 65535) throw new CliError(`--port ${flags.port}: give a port number from 0 to 65535`);
  if (!flags.host) throw new CliError('--host: give an address to listen on, e.g. 127.0.0.1');
  // The jobs of a store may have zones of their own: the console shows them all in one, this reader's.
  const people: ForPeople = { zone: zoneOption(flags.tz, undefined, env), locale: localeOption(flags.locale, env) };
  const token = env.OUTREACH_CONSOLE_TOKEN?.trim() || undefined;
  if (token === undefined && !isLoopback(flags.host)) {
    throw new CliError(
      `--host ${flags.host} is reachable from other machines, and the console shows people's phone numbers: set OUTREACH_CONSOLE_TOKEN to a long random secret (the console then asks for it), or listen on 127.0.0.1`,
    );
  }
  return { port: Number(flags.port), host: flags.host, store: storeWhere(flags, env), people, ...(token !== undefined && { token }) };
}

/** Runs the console until `stop` aborts; prints where it listens (never the token). */
export async function runConsole(settings: ConsoleSettings, io: { out: NodeJS.WritableStream; logger: Logger; stop: AbortSignal }): Promise<void> {
  const store = await openStore(settings.store);
  let running;
  try {
    running = await startConsole({
      store,
      port: settings.port,
      host: settings.host,
      ...(settings.token !== undefined && { token: settings.token }),
      location: shownWhere(settings.store),
      zone: settings.people.zone,
      ...(settings.people.locale !== undefined && { locale: settings.people.locale }),
      thisHost: hostname(),
      signal: terminate,
      onError: (err) => io.logger.error({ event: 'console_error', err }, `the console met a bug: ${err instanceof Error ? err.message : String(err)}`),
    });
  } catch (err) {
    await store.close();
    throw listenError(err, settings);
  }
  const guard = settings.token !== undefined ? 'it asks for OUTREACH_CONSOLE_TOKEN' : 'open to this machine only';
  io.out.write(`console listening on ${running.url}/ (${guard})\nstate: ${shownWhere(settings.store)}\nhealth: ${running.url}/healthz, metrics: ${running.url}/metrics\npress Ctrl+C to stop\n`);
  if (!io.stop.aborted) await new Promise<void>((resolve) => io.stop.addEventListener('abort', () => resolve(), { once: true }));
  await running.close();
  await store.close();
  io.out.write('console stopped\n');
}

/** A port or address the console cannot listen on, as one sentence. */
function listenError(err: unknown, settings: Pick<ConsoleSettings, 'port' | 'host'>): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new CliError(`port ${settings.port} is already in use; pass --port with a free port, or --port 0 for any`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new CliError(`--host ${settings.host}: cannot listen on that address; use 127.0.0.1, or 0.0.0.0 with OUTREACH_CONSOLE_TOKEN set`);
  if (code === 'EACCES') return new CliError(`port ${settings.port}: this user may not listen on it; pass --port 1024 or above`);
  return err;
}
