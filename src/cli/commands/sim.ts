import type { Command } from 'commander';
import { startSimulator, type ActiveDelivery, type SimOptions } from '../../sim/index.js';
import { untilStopped } from '../api-command.js';
import { CliError } from '../exit.js';
import { DEFAULT_SIM_PORT, simOptionsFromFlags, type SimFlags } from '../sim-flags.js';

function deliveryLine(d: ActiveDelivery | null): string {
  if (!d) return 'delivery statuses: off, every message stays sent (pass --delivery)';
  const pct = (share: number) => `${Math.round(share * 1000) / 10}%`;
  return `delivery statuses: ${pct(d.delivered)} delivered (${pct(d.read)} of them read), ${pct(d.failed)} failed, the rest stay sent`;
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
    deliveryLine(s.delivery()),
    options.templateDisplay === 'body'
      ? 'template messages listed: the body alone (no header, footer or buttons)'
      : 'template messages listed: in full, every component one a line (pass --template-display body for the body alone)',
    `controls: POST ${sim.url}/__sim/inbound {"phone","text"} · POST /__sim/clock {"advance_ms"} · GET /__sim/counters`,
    `provider: POST /__sim/provider/forced-errors {"phones","code"} · /stopped-marketing {"phones"} · /spam-limit {"afterSends"} (DELETE clears)`,
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
    .option('--latency-jitter <ms>', 'each request\'s latency is drawn uniformly from --latency ± this (seeded)')
    .option('--drop-rate <share>', 'share 0..1 of API requests dropped with no answer')
    .option('--drop-after-processing', 'drop after doing the work (the send happened), not before')
    .option('--provider-errors <shares>', 'shares of wba/whatsapp sends the provider refuses, by code, e.g. 131026=0.05,131049=0.02')
    .option('--delivery [shares]', 'move sent messages to delivered, read or failed over time, e.g. delivered=0.9,read=0.6,failed=0.05')
    .option('--delivery-delays <ranges>', 'delays of those moves, e.g. delivered=2s-20s,read=1m-30m,failed=1s-15s (read counts from delivered)')
    .option('--template-display <how>', 'how the message list shows a template message: full (every component one a line) or body (the body alone)')
    .option('--seed <n>', 'seed of the random faults, for repeatable runs')
    .option('--numbers <ids>', 'more WhatsApp Cloud numbers of the company beside 10 to 13, for a pool, e.g. 14,15')
    .action(async (flags: SimFlags) => {
      const options = simOptionsFromFlags(flags);
      await untilStopped((stop) => runSim(options, { out: process.stdout, stop }));
    });
}
