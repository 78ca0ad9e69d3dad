import type { AddressInfo } from 'node:net';
import { COMPANY_ID, DEFAULT_REQUEST_LOG_LIMIT, DEFAULT_TEMPLATE_DISPLAY, TEMPLATE_DISPLAYS, WEBHOOK_TIMEOUT_MS, type TemplateDisplay } from './assumptions.js';
import { SimClock } from './clock.js';
import type { SimCore } from './core.js';
import { DeliveryTimeline } from './delivery-timeline.js';
import { Faults } from './faults.js';
import { Store } from './model.js';
import { ProviderState } from './provider-state.js';
import { RequestLog } from './request-log.js';
import { seedData } from './seed.js';
import { createSimServer } from './server.js';
import { createState } from './state.js';
import type { RunningSimulator, SimOptions, WebhookConfig } from './types.js';
import { WebhookEmitter } from './webhook.js';

export type {
  CustomFieldValue,
  InboundResult,
  RequestLogEntry,
  RunningSimulator,
  SimChannel,
  SimClient,
  SimConversation,
  SimCounters,
  SimCustomField,
  SimDelay,
  SimFaults,
  SimMessage,
  SimOptions,
  SimState,
  SimTag,
  SimTemplate,
  SimTemplateButton,
  SimTemplateComponent,
  WebhookConfig,
  WebhookDelivery,
} from './types.js';
export { DEFAULT_DELIVERY, DEFAULT_TEMPLATE_DISPLAY, TEMPLATE_DISPLAYS, type DeliveryStatus, type TemplateDisplay } from './assumptions.js';
export type { CodeShares } from './code-shares.js';
export type { ActiveDelivery, DelayRange, DeliveryPlan, SimDelivery, SimProviderState } from './provider-types.js';
export { PROVIDER_CODES, PROVIDER_ERRORS, isProviderCode, providerMessage, type ProviderCode } from './provider-codes.js';
export type { Phones } from './provider-state.js';
export { signedEvent } from './webhook.js';

export const DEFAULT_SIM_TOKEN = 'sim-token';
export const DEFAULT_SIM_HOST = '127.0.0.1';

interface Settings {
  port: number;
  host: string;
  token: string;
  webhook: WebhookConfig | undefined;
  seed: number;
  startTime: number;
  logRequests: boolean;
  requestLogLimit: number;
  webhookTimeoutMs: number;
  templateDisplay: TemplateDisplay;
}

/** Options folded once over the defaults; a bad value is a RangeError naming it. */
function settle(options: SimOptions): Settings {
  const s: Settings = {
    port: options.port ?? 0,
    host: options.host ?? DEFAULT_SIM_HOST,
    token: options.token ?? DEFAULT_SIM_TOKEN,
    webhook: options.webhook,
    seed: options.seed ?? Date.now(),
    startTime: options.startTime ?? Date.now(),
    logRequests: options.logRequests ?? true,
    requestLogLimit: options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT,
    webhookTimeoutMs: options.webhookTimeoutMs ?? WEBHOOK_TIMEOUT_MS,
    templateDisplay: options.templateDisplay ?? DEFAULT_TEMPLATE_DISPLAY,
  };
  if (!Number.isInteger(s.port) || s.port < 0 || s.port > 65535) throw new RangeError(`port ${s.port} is not 0..65535`);
  if (!s.token || /\s/.test(s.token)) throw new RangeError('token must be a non-empty string without spaces');
  if (!Number.isFinite(s.seed)) throw new RangeError('seed must be a number');
  if (!Number.isFinite(s.startTime)) throw new RangeError('startTime must be epoch milliseconds');
  if (!Number.isInteger(s.requestLogLimit) || s.requestLogLimit < 2) throw new RangeError('requestLogLimit must be 2 or more');
  if (!Number.isFinite(s.webhookTimeoutMs) || s.webhookTimeoutMs <= 0)
    throw new RangeError('webhookTimeoutMs must be a positive number of milliseconds');
  if (!TEMPLATE_DISPLAYS.includes(s.templateDisplay)) throw new RangeError(`templateDisplay must be one of ${TEMPLATE_DISPLAYS.join(', ')}`);
  return s;
}

/** Starts the platform simulator on a loopback port (ephemeral by default) and resolves once it listens. */
export async function startSimulator(options: SimOptions = {}): Promise<RunningSimulator> {
  const settings = settle(options);
  const log = new RequestLog(settings.logRequests, settings.requestLogLimit);
  const webhook = new WebhookEmitter(undefined, settings.webhookTimeoutMs);
  webhook.configure(settings.webhook);
  webhook.onAttempt = () => log.counters.webhookAttempts++;
  const companyId = options.companyId ?? COMPANY_ID;
  if (!Number.isInteger(companyId) || companyId < 1) throw new RangeError('companyId must be a whole number from 1');
  const seed = seedData(companyId);
  const store = new Store({ ...seed, channels: [...seed.channels, ...(options.channels ?? [])] });
  const core: SimCore = {
    store,
    clock: new SimClock(settings.startTime, options.wallClock),
    faults: new Faults(settings.seed, options.faults),
    provider: new ProviderState(),
    delivery: new DeliveryTimeline(store, settings.seed, options.delivery),
    webhook,
    log,
    templateDisplay: settings.templateDisplay,
    companyId,
  };
  const { server, shutdown } = createSimServer(core, settings.token, options.delay);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    token: settings.token,
    state: createState(core),
    close() {
      closing ??= new Promise<void>((resolve) => {
        shutdown();
        webhook.abortAll();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
