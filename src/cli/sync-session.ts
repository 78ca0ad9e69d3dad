import type { Logger } from 'pino';
import { platformError } from '../app/index.js';
import { keywordsFromEnv, knownPhones, sync, type InboundKeywords, type SyncResult } from '../webhook/index.js';
import { resolveBaseUrl, resolveToken } from './context.js';
import { CliError } from './exit.js';
import { companyFlag } from './webhook-session.js';
import { openStore, storeWhere, usingStore, type StoreWhere } from './store-root.js';
import type { MetricsTargets } from '../metrics/index.js';
import { metricsTargets, type MetricsFlags } from './metrics-options.js';
import { withPassMetrics } from './pass-metrics.js';
import { openApi } from './api-root.js';

export interface SyncFlags extends MetricsFlags {
  since?: string;
  stateDir?: string;
  store?: string;
  storeFile?: string;
  baseUrl?: string;
  tokenFile?: string;
  json?: boolean;
  logFile?: string;
  company?: string;
}

export interface SyncSettings {
  baseUrl: string;
  token: string;
  /** Where the events, windows, suppression list and bookmark are kept. */
  store: StoreWhere;
  since?: string;
  json: boolean;
  keywords: InboundKeywords;
  /** The company of a message no job's conversation tells, when the store holds several companies (`--company`). */
  company?: number;
  /** Where its metrics go (`--metrics-file`, `--pushgateway`); none when absent. */
  metrics?: MetricsTargets;
}

export async function syncSettings(flags: SyncFlags, env: NodeJS.ProcessEnv = process.env): Promise<SyncSettings> {
  if (flags.since !== undefined && Number.isNaN(Date.parse(flags.since))) {
    throw new CliError(`--since "${flags.since}" is not a date-time; write it as 2025-03-01T00:00:00Z`);
  }
  const metrics = await metricsTargets(flags, env);
  return {
    ...(metrics && { metrics }),
    baseUrl: resolveBaseUrl(flags.baseUrl, env),
    token: await resolveToken(flags.tokenFile, env),
    store: storeWhere(flags, env),
    ...(flags.since !== undefined ? { since: new Date(Date.parse(flags.since)).toISOString() } : {}),
    json: flags.json === true,
    keywords: keywordsFromEnv(env),
    ...(flags.company !== undefined && { company: companyFlag(flags.company) }),
  };
}

/** One sync pass; prints what it recorded (one JSON object with --json). */
export async function runSync(
  settings: SyncSettings,
  io: { out: NodeJS.WritableStream; logger: Logger; signal?: AbortSignal },
): Promise<SyncResult> {
  const api = openApi({ baseUrl: settings.baseUrl, token: settings.token });
  const reading = { succeeded: () => true, optOuts: (r: SyncResult) => ({ source: 'reply_keyword' as const, count: r.optOuts }) };
  const result = await withPassMetrics('sync', settings.metrics, { logger: io.logger }, async () => usingStore(await openStore(settings.store), async (store): Promise<SyncResult> => {
    try {
      const phones = knownPhones(store, io.logger);
      await phones.load();
      return await sync({
        api,
        store,
        logger: io.logger,
        keywords: settings.keywords,
        knownPhones: (clientId) => phones.get(clientId),
        ...(settings.company !== undefined && { company: settings.company }),
        ...(settings.since !== undefined ? { since: settings.since } : {}),
        ...(io.signal ? { signal: io.signal } : {}),
      });
    } catch (err) {
      throw platformError(err, { baseUrl: settings.baseUrl, note: 'progress so far is kept, run sync again to finish' });
    } finally {
      await api.close();
    }
  }), reading);
  if (settings.json) {
    io.out.write(`${JSON.stringify(result)}\n`);
  } else {
    io.out.write(
      `sync: ${result.conversations} conversation(s) changed since ${result.since}; ` +
        `${result.messagesSeen} message(s) read, ${result.recorded} new recorded (${result.inboundRecorded} inbound)\n` +
        (result.optOuts + result.optIns > 0 ? `opt-out replies: ${result.optOuts} phone(s) suppressed; opt-in replies: ${result.optIns} phone(s) restored\n` : '') +
        `next sync starts from ${result.until}\n`,
    );
  }
  return result;
}

