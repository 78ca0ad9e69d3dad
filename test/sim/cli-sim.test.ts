import { Writable } from 'node:stream';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerSim, runSim } from '../../src/cli/commands/sim.js';
import { simOptionsFromFlags } from '../../src/cli/sim-flags.js';
import { waitFor } from '../helpers/wait.js';

const defaults = { port: '8780', host: '127.0.0.1', token: 'sim-token' };

function program(): Command {
  const p = new Command();
  p.exitOverride();
  p.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  registerSim(p);
  return p;
}

describe('outreach sim', () => {
  it('registers the sim command with its one-line description', () => {
    const sim = program().commands.find((c) => c.name() === 'sim')!;
    expect(sim.description()).toBe('Run the platform simulator locally (for trying jobs without a real platform)');
    expect(sim.options.map((o) => o.long)).toEqual(
      expect.arrayContaining(['--port', '--host', '--token', '--webhook-url', '--webhook-secret', '--fail-rate', '--ww-down', '--rate-limit', '--latency', '--drop-rate', '--seed']),
    );
    expect(sim.options.map((o) => o.long)).toEqual(
      expect.arrayContaining(['--latency-jitter', '--provider-errors', '--delivery', '--delivery-delays']),
    );
  });

  it('folds flags into simulator options', () => {
    expect(
      simOptionsFromFlags({
        ...defaults,
        port: '0',
        failRate: '0.1',
        wwDown: true,
        rateLimit: '20',
        latency: '50',
        dropRate: '0.05',
        seed: '7',
        webhookUrl: 'http://127.0.0.1:9000/hook',
        webhookSecret: 's3cret',
      }),
    ).toEqual({
      port: 0,
      host: '127.0.0.1',
      token: 'sim-token',
      seed: 7,
      webhook: { url: 'http://127.0.0.1:9000/hook', secret: 's3cret' },
      faults: { failRate: 0.1, wwDown: true, rateLimitPerSecond: 20, latencyMs: 50, dropRate: 0.05 },
    });
  });

  it('sets the latency jitter from --latency-jitter', () => {
    expect(simOptionsFromFlags({ ...defaults, latency: '200', latencyJitter: '50' }).faults).toEqual({ latencyMs: 200, latencyJitterMs: 50 });
  });

  it('leaves delivery statuses off without --delivery, and turns them on with the defaults when it has no value', () => {
    expect(simOptionsFromFlags(defaults).delivery).toBeUndefined();
    expect(simOptionsFromFlags({ ...defaults, delivery: true }).delivery).toEqual({});
  });

  it('folds --delivery shares and --delivery-delays ranges (ms, s, m, h) into the delivery settings', () => {
    expect(
      simOptionsFromFlags({ ...defaults, delivery: 'delivered=0.9,read=0.6,failed=0.05', deliveryDelays: 'delivered=2s-20s,read=1m-30m,failed=1500' })
        .delivery,
    ).toEqual({
      delivered: 0.9,
      read: 0.6,
      failed: 0.05,
      deliveredAfterMs: [2000, 20_000],
      readAfterMs: [60_000, 1_800_000],
      failedAfterMs: [1500, 1500],
    });
    expect(simOptionsFromFlags({ ...defaults, deliveryDelays: 'read=0.5h' }).delivery).toEqual({ readAfterMs: [1_800_000, 1_800_000] });
  });

  it('takes --delivery with or without a value', () => {
    const sim = program().commands.find((c) => c.name() === 'sim');
    const option = sim?.options.find((o) => o.long === '--delivery');
    expect(option).toMatchObject({ optional: true, required: false });
  });

  it('lists template messages in full by default, and by their body alone with --template-display body', () => {
    expect(simOptionsFromFlags(defaults).templateDisplay).toBeUndefined();
    expect(simOptionsFromFlags({ ...defaults, templateDisplay: 'full' }).templateDisplay).toBe('full');
    expect(simOptionsFromFlags({ ...defaults, templateDisplay: 'body' }).templateDisplay).toBe('body');
  });

  it('adds numbers of the company (WhatsApp Cloud) for a pool with --numbers, and refuses one the simulator has or one given twice', () => {
    expect(simOptionsFromFlags({ ...defaults, numbers: '14, 15' }).channels).toEqual([
      { id: 14, name: 'Number 14 (WhatsApp Cloud)', type: 'wba', status: 1 },
      { id: 15, name: 'Number 15 (WhatsApp Cloud)', type: 'wba', status: 1 },
    ]);
    expect(simOptionsFromFlags(defaults).channels).toBeUndefined();
    expect(() => simOptionsFromFlags({ ...defaults, numbers: '10' })).toThrow('--numbers: 10 is already a channel of the simulator (10 to 13); pick other ids, e.g. 14,15');
    expect(() => simOptionsFromFlags({ ...defaults, numbers: '14,14' })).toThrow('--numbers: 14 is given twice; give each once');
    expect(() => simOptionsFromFlags({ ...defaults, numbers: '14,x' })).toThrow('--numbers 14,x: give channel ids separated by commas, e.g. 14,15');
  });

  it('sets provider errors by code from --provider-errors', () => {
    expect(simOptionsFromFlags({ ...defaults, providerErrors: '131026=0.05, 131049=0.02' }).faults).toEqual({
      providerErrors: { 131026: 0.05, 131049: 0.02 },
    });
  });

  it.each([
    [['--port', 'abc'], /--port/],
    [['--port', '70000'], /--port/],
    [['--fail-rate', '2'], /--fail-rate/],
    [['--drop-rate', 'half'], /--drop-rate/],
    [['--rate-limit', '-1'], /--rate-limit/],
    [['--latency', '1.5'], /--latency/],
    [['--latency-jitter', '-5'], /--latency-jitter/],
    [['--webhook-url', 'http://x/'], /--webhook-secret/],
    [['--webhook-url', 'ftp://x/', '--webhook-secret', 's'], /--webhook-url/],
    [['--provider-errors', '999=0.1'], /--provider-errors: 999 is not a provider error code/],
    [['--provider-errors', '131026=1.5'], /--provider-errors 131026=1\.5: give 131026 a share from 0 to 1/],
    [['--provider-errors', '131026=0.6,131049=0.6'], /--provider-errors .*add up to 1\.2/],
    [['--provider-errors', '131026'], /--provider-errors 131026: write code=share pairs/],
    [['--provider-errors', '131026=0.1,131026=0.2'], /--provider-errors: 131026 is given twice/],
    [['--delivery', 'delivered=1.2'], /--delivery delivered=1\.2: give delivered a share from 0 to 1/],
    [['--delivery', 'seen=0.5'], /--delivery: seen is not a delivery share/],
    [['--delivery', 'delivered=0.97'], /--delivery .*delivered \(0\.97\) and failed \(0\.04\) add up to more than 1/],
    [['--delivery-delays', 'delivered=20s-2s'], /--delivery-delays delivered=20s-2s: the range ends before it starts/],
    [['--delivery-delays', 'read=soon'], /--delivery-delays read=soon: give a duration/],
    [['--template-display', 'header'], /--template-display header: give full .* or body/],
  ])('refuses %j with a user error naming the flag', async (args, message) => {
    const error = await program()
      .parseAsync(['node', 'outreach', 'sim', ...(args as string[])])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as { userError?: boolean }).userError).toBe(true);
    expect((error as Error).message).toMatch(message);
  });

  it('prints the base URL and token, serves, and closes when stopped', async () => {
    let out = '';
    const sink = new Writable({ write: (chunk, _e, cb) => ((out += String(chunk)), cb()) });
    const stop = new AbortController();
    const running = runSim(simOptionsFromFlags({ ...defaults, port: '0' }), { out: sink, stop: stop.signal });
    await waitFor(() => out.includes('template messages listed:'));
    const url = /simulator listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
    expect(out).toContain('token: sim-token');
    expect(out).toContain(`export OUTREACH_BASE_URL=${url} OUTREACH_TOKEN=sim-token`);
    expect(out).toContain('delivery statuses: off, every message stays sent (pass --delivery)');
    expect(out).toContain('template messages listed: in full, every component one a line (pass --template-display body for the body alone)');
    const res = await fetch(`${url}/company/1/channels`, { headers: { authorization: 'Bearer sim-token' } });
    expect(res.status).toBe(200);
    stop.abort();
    await running;
    expect(out).toContain('simulator stopped');
    await expect(fetch(`${url}/company/1/channels`)).rejects.toThrow();
  });

  it('explains a port already in use', async () => {
    const stop = new AbortController();
    let out = '';
    const sink = new Writable({ write: (chunk, _e, cb) => ((out += String(chunk)), cb()) });
    const first = runSim(simOptionsFromFlags({ ...defaults, port: '0' }), { out: sink, stop: stop.signal });
    await waitFor(() => /:(\d+)\n/.test(out));
    const port = /:(\d+)\n/.exec(out)![1]!;
    const error = await runSim(simOptionsFromFlags({ ...defaults, port }), { out: sink, stop: stop.signal }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/already in use/);
    expect((error as { userError?: boolean }).userError).toBe(true);
    stop.abort();
    await first;
  });
});
