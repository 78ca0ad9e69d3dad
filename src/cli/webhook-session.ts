import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { ApiClient } from '../api/index.js';
import { receiverMetrics } from '../metrics/index.js';
import { healthStatus, keywordsFromEnv, knownPhones, startReceiver, storeHealth, STORE_TIMEOUT_MS, type InboundKeywords, type Receiver, type ReceiverStats } from '../webhook/index.js';
import { resolveBaseUrl, resolveStateDir, resolveToken } from './context.js';
import { CliError } from './exit.js';
import { openStore, shownWhere, storeWhere, type StoreWhere } from './store-root.js';
import { openApi } from './api-root.js';

/** The receiver's documented default; the simulator defaults to 8780 so both run side by side. */
export const DEFAULT_WEBHOOK_PORT = 8787;

export interface WebhookFlags {
  port: string;
  host: string;
  stateDir?: string;
  store?: string;
  storeFile?: string;
  baseUrl?: string;
  tokenFile?: string;
  company?: string;
  spool?: string;
}

/** Names the spool folder when --spool does not. */
export const SPOOL_ENV = 'OUTREACH_WEBHOOK_SPOOL';

export interface WebhookSettings {
  port: number;
  host: string;
  secret: string;
  /** Where the events, windows and suppression list are kept (a state folder or a database). */
  store: StoreWhere;
  /** OUTREACH_OPTOUT_KEYWORDS / OUTREACH_OPTIN_KEYWORDS, or the built-in lists. */
  keywords: InboundKeywords;
  /** Absent: no phone look-ups (phones come from jobs' checkpoints only). */
  platform?: { baseUrl: string; token: string };
  /** The company of a message no job's conversation tells, when the store holds several companies (`--company`). */
  company?: number;
  /** Where deliveries wait while the store cannot take them: --spool, else OUTREACH_WEBHOOK_SPOOL, else webhook-spool/ in the state folder (this machine's, with a database store). */
  spoolDir: string;
}

/** Flags and environment folded once into the receiver's settings; a bad value is a one-sentence CliError. */
export async function webhookSettings(flags: WebhookFlags, env: NodeJS.ProcessEnv = process.env): Promise<WebhookSettings> {
  const secret = env.OUTREACH_WEBHOOK_SECRET;
  if (!secret) {
    throw new CliError(
      'OUTREACH_WEBHOOK_SECRET is not set: copy the signing secret shown under Integrations in the platform settings',
    );
  }
  if (!/^\d+$/.test(flags.port) || Number(flags.port) > 65535) {
    throw new CliError(`--port ${flags.port}: give a port number from 0 to 65535`);
  }
  if (!flags.host) throw new CliError('--host: give an address to listen on, e.g. 127.0.0.1');
  const company = companyFlag(flags.company);
  const token = flags.tokenFile ? await resolveToken(flags.tokenFile, env) : env.OUTREACH_TOKEN?.trim() || undefined;
  const spool = flags.spool || env[SPOOL_ENV] || undefined;
  return {
    port: Number(flags.port),
    host: flags.host,
    secret,
    store: storeWhere(flags, env),
    spoolDir: spool !== undefined ? path.resolve(spool) : path.join(resolveStateDir(flags.stateDir, env), 'webhook-spool'),
    keywords: keywordsFromEnv(env),
    ...(token ? { platform: { baseUrl: resolveBaseUrl(flags.baseUrl, env), token } } : {}),
    ...(company !== undefined && { company }),
  };
}

/** `--company N`: a platform company's id, or a one-sentence CliError. */
export function companyFlag(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new CliError(`--company "${text}": give the platform company's id, a whole number such as 1`);
  return Number(text);
}

/** Runs the receiver until `stop` aborts; prints where it listens and, at the end, what it did. */
export async function runWebhook(
  settings: WebhookSettings,
  io: { out: NodeJS.WritableStream; logger: Logger; stop: AbortSignal },
): Promise<ReceiverStats> {
  const { logger } = io;
  let api: ApiClient | undefined;
  if (settings.platform) {
    api = openApi(settings.platform);
  } else {
    logger.warn(
      'OUTREACH_TOKEN is not set: client phones are not looked up on the platform (only taken from job checkpoints), so some 24-hour windows and opt-out replies are known by client id only',
    );
  }
  const store = await openStore(settings.store);
  let receiver: Receiver | undefined;
  try {
    const phones = knownPhones(store, logger);
    // A store that does not answer (a database held by a pooler) does not hold the start: the phones come when it does.
    await Promise.race([phones.load(), delay(STORE_TIMEOUT_MS, undefined, { ref: false })]);
    const metrics = receiverMetrics();
    // Healthy while it can take events: the store answers, or the spool keeps them until it does.
    const health = storeHealth(store, { spool: () => spoolCheck(receiver) });
    receiver = await startReceiver({
      port: settings.port,
      host: settings.host,
      secret: settings.secret,
      store,
      logger,
      keywords: settings.keywords,
      knownPhones: (clientId) => phones.get(clientId),
      ...(api ? { api } : {}),
      ...(settings.company !== undefined && { company: settings.company }),
      spoolDir: settings.spoolDir,
      health,
      // Each scrape asks the store afresh (or takes a check of the last second): outreach_store_up is never stale.
      metrics: async () => {
        const now = await health.check();
        metrics.storeUp.set(now.storeUp ? 1 : 0);
        metrics.healthy.set(healthStatus(now) === 200 ? 1 : 0);
        return { contentType: metrics.registry.contentType, text: await metrics.registry.metrics() };
      },
      onDelivery: (result) => metrics.deliveries.inc({ result }),
      onOptOut: () => metrics.optOuts.inc({ source: 'reply_keyword' }),
    });
  } catch (err) {
    await api?.close();
    await store.close();
    throw listenError(err, settings);
  }
  io.out.write(`webhook receiver listening on ${receiver.url}\nstate: ${shownWhere(settings.store)}\nspool: ${settings.spoolDir}\nhealth: ${receiver.url}/healthz, metrics: ${receiver.url}/metrics\npress Ctrl+C to stop\n`);
  if (!io.stop.aborted) {
    await new Promise<void>((resolve) => io.stop.addEventListener('abort', () => resolve(), { once: true }));
  }
  const waiting = receiver.health().spooled;
  await receiver.close();
  await api?.close();
  // A database that does not answer does not hold the stop: what was not recorded waits in the spool.
  await Promise.race([store.close(), delay(STORE_TIMEOUT_MS, undefined, { ref: false })]);
  const s = receiver.stats;
  const refused = s.unauthorized + s.badRequest + s.tooLarge + s.methodNotAllowed + s.storeFailures;
  const spooled = s.spooled > 0 || s.appliedFromSpool > 0 ? `, ${s.spooled} kept in the spool while the store could not take them, ${s.appliedFromSpool} applied from it` : '';
  io.out.write(`webhook receiver stopped: ${s.recorded} recorded, ${s.duplicates} repeated, ${refused} refused${spooled}\n`);
  if (waiting > 0) io.out.write(`${waiting} event(s) wait in the spool ${settings.spoolDir}: the receiver applies them when it starts again and the store answers\n`);
  return s;
}


/** A port or address the receiver cannot listen on, as one sentence. */
function listenError(err: unknown, settings: Pick<WebhookSettings, 'port' | 'host'>): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new CliError(`port ${settings.port} is already in use; pass --port with a free port, or --port 0 for any`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new CliError(`--host ${settings.host}: cannot listen on that address; use 127.0.0.1 or 0.0.0.0`);
  return err;
}

/** What the spool can do now: take events, unless the last one could not be written there either (a full disk). */
function spoolCheck(receiver: Receiver | undefined): { ready: boolean; why?: string } {
  const spool = receiver?.health();
  if (spool?.spoolError !== undefined) return { ready: false, why: spool.spoolError };
  return { ready: true };
}
