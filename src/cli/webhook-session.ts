import type { Logger } from 'pino';
import { createApiClient, type ApiClient } from '../api/index.js';
import { receiverMetrics } from '../metrics/index.js';
import { healthStatus, keywordsFromEnv, knownPhones, startReceiver, storeHealth, type InboundKeywords, type ReceiverStats } from '../webhook/index.js';
import { resolveBaseUrl, resolveToken } from './context.js';
import { CliError } from './exit.js';
import { openStore, shownWhere, storeWhere, type StoreWhere } from './store-root.js';

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
}

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
  return {
    port: Number(flags.port),
    host: flags.host,
    secret,
    store: storeWhere(flags, env),
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
    api = createApiClient(settings.platform);
  } else {
    logger.warn(
      'OUTREACH_TOKEN is not set: client phones are not looked up on the platform (only taken from job checkpoints), so some 24-hour windows and opt-out replies are known by client id only',
    );
  }
  const store = openStore(settings.store);
  let receiver;
  try {
    const phones = knownPhones(store, logger);
    await phones.load();
    const metrics = receiverMetrics();
    const health = storeHealth(store);
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
  io.out.write(`webhook receiver listening on ${receiver.url}\nstate: ${shownWhere(settings.store)}\nhealth: ${receiver.url}/healthz, metrics: ${receiver.url}/metrics\npress Ctrl+C to stop\n`);
  if (!io.stop.aborted) {
    await new Promise<void>((resolve) => io.stop.addEventListener('abort', () => resolve(), { once: true }));
  }
  await receiver.close();
  await api?.close();
  await store.close();
  const s = receiver.stats;
  const refused = s.unauthorized + s.badRequest + s.tooLarge + s.methodNotAllowed + s.storeFailures;
  io.out.write(`webhook receiver stopped: ${s.recorded} recorded, ${s.duplicates} repeated, ${refused} refused\n`);
  return s;
}


/** A port or address the receiver cannot listen on, as one sentence. */
function listenError(err: unknown, settings: Pick<WebhookSettings, 'port' | 'host'>): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new CliError(`port ${settings.port} is already in use; pass --port with a free port, or --port 0 for any`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new CliError(`--host ${settings.host}: cannot listen on that address; use 127.0.0.1 or 0.0.0.0`);
  return err;
}
