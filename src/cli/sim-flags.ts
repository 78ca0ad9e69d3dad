import { TEMPLATE_DISPLAYS, type SimChannel, type SimDelivery, type SimFaults, type SimOptions, type TemplateDisplay } from '../sim/index.js';
import { CliError } from './exit.js';
import { deliveryDelays, deliveryShares, providerErrorShares } from './sim-flag-specs.js';

/** Flags of `outreach sim` as commander gives them (strings until checked). */
export interface SimFlags {
  port: string;
  host: string;
  token: string;
  webhookUrl?: string;
  webhookSecret?: string;
  failRate?: string;
  wwDown?: boolean;
  rateLimit?: string;
  latency?: string;
  latencyJitter?: string;
  dropRate?: string;
  dropAfterProcessing?: boolean;
  providerErrors?: string;
  /** `true` when given without a value (the defaults). */
  delivery?: string | true;
  deliveryDelays?: string;
  templateDisplay?: string;
  seed?: string;
  /** More numbers of the company, `14,15` (a pool's). */
  numbers?: string;
}

export const DEFAULT_SIM_PORT = 8780;

function wholeNumber(flag: string, raw: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(raw.trim()) || Number(raw) > max)
    throw new CliError(`${flag} ${raw}: give a whole number from 0 to ${max}`);
  return Number(raw);
}

function share(flag: string, raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new CliError(`${flag} ${raw}: give a share from 0 to 1, e.g. 0.1 for one in ten`);
  return value;
}

function webhook(flags: SimFlags): SimOptions['webhook'] {
  if ((flags.webhookUrl === undefined) !== (flags.webhookSecret === undefined))
    throw new CliError('--webhook-url and --webhook-secret go together; give both or neither');
  if (flags.webhookUrl === undefined || flags.webhookSecret === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(flags.webhookUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new CliError(`--webhook-url ${flags.webhookUrl}: give an http(s) URL, e.g. http://127.0.0.1:8787/webhook`);
  if (!flags.webhookSecret) throw new CliError('--webhook-secret: give a non-empty secret');
  return { url: flags.webhookUrl, secret: flags.webhookSecret };
}

function faults(flags: SimFlags): SimFaults {
  const faults: SimFaults = {};
  if (flags.failRate !== undefined) faults.failRate = share('--fail-rate', flags.failRate);
  if (flags.dropRate !== undefined) faults.dropRate = share('--drop-rate', flags.dropRate);
  if (flags.rateLimit !== undefined) faults.rateLimitPerSecond = wholeNumber('--rate-limit', flags.rateLimit);
  if (flags.latency !== undefined) faults.latencyMs = wholeNumber('--latency', flags.latency, 600_000);
  if (flags.latencyJitter !== undefined) faults.latencyJitterMs = wholeNumber('--latency-jitter', flags.latencyJitter, 600_000);
  if (flags.wwDown) faults.wwDown = true;
  if (flags.dropAfterProcessing) faults.dropAfterProcessing = true;
  if (flags.providerErrors !== undefined) faults.providerErrors = providerErrorShares('--provider-errors', flags.providerErrors);
  return faults;
}

/** Delivery statuses over time: on with --delivery (shares, or the defaults) or --delivery-delays; off otherwise. */
function delivery(flags: SimFlags): SimDelivery | undefined {
  if (flags.delivery === undefined && flags.deliveryDelays === undefined) return undefined;
  return {
    ...(typeof flags.delivery === 'string' ? deliveryShares('--delivery', flags.delivery) : {}),
    ...(flags.deliveryDelays !== undefined ? deliveryDelays('--delivery-delays', flags.deliveryDelays) : {}),
  };
}

function isTemplateDisplay(raw: string): raw is TemplateDisplay {
  return (TEMPLATE_DISPLAYS as readonly string[]).includes(raw);
}

/** `--template-display full|body`: how the message list shows a template message. */
function templateDisplay(raw: string): TemplateDisplay {
  if (!isTemplateDisplay(raw))
    throw new CliError(`--template-display ${raw}: give full (every component one a line) or body (the body alone)`);
  return raw;
}

/** The channel ids the simulator's seed has (10 wba, 11 whatsapp, 12 ww, 13 inactive wba). */
const SEED_CHANNELS = [10, 11, 12, 13];

/** `--numbers 14,15`: more WhatsApp Cloud numbers of the company beside the seed's, for a pool. */
function moreNumbers(raw: string): SimChannel[] {
  const ids = raw.split(',').map((p) => p.trim());
  if (ids.some((id) => !/^[1-9]\d{0,8}$/.test(id))) throw new CliError(`--numbers ${raw}: give channel ids separated by commas, e.g. 14,15`);
  const seen = new Set<number>();
  return ids.map((text) => {
    const id = Number(text);
    if (SEED_CHANNELS.includes(id)) throw new CliError(`--numbers: ${id} is already a channel of the simulator (10 to 13); pick other ids, e.g. 14,15`);
    if (seen.has(id)) throw new CliError(`--numbers: ${id} is given twice; give each once`);
    seen.add(id);
    return { id, name: `Number ${id} (WhatsApp Cloud)`, type: 'wba', status: 1 };
  });
}

/** Checks the flags and folds them into simulator options; a bad value is a one-sentence CliError. */
export function simOptionsFromFlags(flags: SimFlags): SimOptions {
  const port = wholeNumber('--port', flags.port, 65535);
  if (!flags.token || /\s/.test(flags.token)) throw new CliError('--token: give a token without spaces');
  if (!flags.host) throw new CliError('--host: give an address to listen on, e.g. 127.0.0.1');
  const options: SimOptions = { port, host: flags.host, token: flags.token, faults: {} };
  const hook = webhook(flags);
  if (hook) options.webhook = hook;
  options.faults = faults(flags);
  const statuses = delivery(flags);
  if (statuses) options.delivery = statuses;
  if (flags.templateDisplay !== undefined) options.templateDisplay = templateDisplay(flags.templateDisplay);
  if (flags.seed !== undefined) options.seed = wholeNumber('--seed', flags.seed);
  if (flags.numbers !== undefined) options.channels = moreNumbers(flags.numbers);
  return options;
}
