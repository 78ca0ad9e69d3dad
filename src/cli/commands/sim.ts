import type { Command } from 'commander';
import { startSimulator, type SimOptions } from '../../sim/index.js';
import { untilStopped } from '../api-command.js';
import { CliError } from '../exit.js';

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
  dropRate?: string;
  dropAfterProcessing?: boolean;
  seed?: string;
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

/** Checks the flags and folds them into simulator options; a bad value is a one-sentence CliError. */
export function simOptionsFromFlags(flags: SimFlags): SimOptions {
  const options: SimOptions = {
    port: wholeNumber('--port', flags.port, 65535),
    host: flags.host,
    token: flags.token,
    faults: {},
  };
  if (!flags.token || /\s/.test(flags.token)) throw new CliError('--token: give a token without spaces');
  if (!flags.host) throw new CliError('--host: give an address to listen on, e.g. 127.0.0.1');
  if ((flags.webhookUrl === undefined) !== (flags.webhookSecret === undefined))
    throw new CliError('--webhook-url and --webhook-secret go together; give both or neither');
  if (flags.webhookUrl !== undefined && flags.webhookSecret !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(flags.webhookUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new CliError(`--webhook-url ${flags.webhookUrl}: give an http(s) URL, e.g. http://127.0.0.1:8787/webhook`);
    if (!flags.webhookSecret) throw new CliError('--webhook-secret: give a non-empty secret');
    options.webhook = { url: flags.webhookUrl, secret: flags.webhookSecret };
  }
  const faults = options.faults!;
  if (flags.failRate !== undefined) faults.failRate = share('--fail-rate', flags.failRate);
  if (flags.dropRate !== undefined) faults.dropRate = share('--drop-rate', flags.dropRate);
  if (flags.rateLimit !== undefined) faults.rateLimitPerSecond = wholeNumber('--rate-limit', flags.rateLimit);
  if (flags.latency !== undefined) faults.latencyMs = wholeNumber('--latency', flags.latency, 600_000);
  if (flags.wwDown) faults.wwDown = true;
  if (flags.dropAfterProcessing) faults.dropAfterProcessing = true;
  if (flags.seed !== undefined) options.seed = wholeNumber('--seed', flags.seed);
  return options;
}

/** Starts the simulator, prints where it is, and closes it when `stop` aborts. */
export async function runSim(
  options: SimOptions,
  io: { out: NodeJS.WritableStream; stop: AbortSignal },
): Promise<void> {
  let sim;
  try {
    sim = await startSimulator(options);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new CliError(`port ${options.port} is already in use; pass --port with a free port, or --port 0 for any`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new CliError(`--host ${options.host}: cannot listen on that address; use 127.0.0.1`);
    throw err;
  }
  const s = sim.state;
  const lines = [
    `simulator listening on ${sim.url}`,
    `token: ${sim.token}`,
    `export OUTREACH_BASE_URL=${sim.url} OUTREACH_TOKEN=${sim.token}`,
    `channels (company 1): ${s.channels.map((c) => `${c.id} ${c.type} "${c.name}"${c.status ? '' : ' (inactive)'}`).join(', ')}`,
    `approved templates: ${s.templates
      .filter((t) => t.status === 'APPROVED')
      .map((t) => `${t.name} ${t.language}`)
      .join(', ')}`,
    options.webhook ? `webhook: ${options.webhook.url}` : 'webhook: none (pass --webhook-url and --webhook-secret)',
    `controls: POST ${sim.url}/__sim/inbound {"phone","text"} · POST /__sim/clock {"advance_ms"} · GET /__sim/counters`,
    'press Ctrl+C to stop',
  ];
  io.out.write(`${lines.join('\n')}\n`);
  if (!io.stop.aborted) await new Promise<void>((resolve) => io.stop.addEventListener('abort', () => resolve(), { once: true }));
  await sim.close();
  io.out.write('simulator stopped\n');
}

export function registerSim(program: Command): void {
  program
    .command('sim')
    .description('Run the platform simulator locally (for trying jobs without a real platform)')
    .option('--port <n>', 'port to listen on (0 = any free port)', String(DEFAULT_SIM_PORT))
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--token <token>', 'bearer token the simulator accepts', 'sim-token')
    .option('--webhook-url <url>', 'POST a signed chat.message event here for every new message')
    .option('--webhook-secret <secret>', 'secret that signs the webhook deliveries')
    .option('--fail-rate <share>', 'share 0..1 of sends that fail with 502 (client and conversation kept)')
    .option('--ww-down', 'the web-session service is down: every send on a ww channel fails with 502')
    .option('--rate-limit <n>', 'API requests allowed per second; beyond it 429 with Retry-After')
    .option('--latency <ms>', 'latency added to every API request, in milliseconds')
    .option('--drop-rate <share>', 'share 0..1 of API requests dropped with no answer')
    .option('--drop-after-processing', 'drop after doing the work (the send happened), not before')
    .option('--seed <n>', 'seed of the random faults, for repeatable runs')
    .action(async (flags: SimFlags) => {
      const options = simOptionsFromFlags(flags);
      await untilStopped((stop) => runSim(options, { out: process.stdout, stop }));
    });
}
