/**
 * The database store with real processes: each `outreach` below is the built CLI in a process of its
 * own, with a state folder of its own (as on another host), sharing one PostgreSQL store through
 * OUTREACH_STORE. What is asserted is what the simulator received (nobody twice, nobody lost, never
 * above the limit) and what the store says afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cliPath, runCli } from '../helpers/cli.js';
import { schemaUrl, startPgbouncer } from '../helpers/pg-cluster.js';
import { waitFor } from '../helpers/wait.js';

const pgUrl = inject('pgUrl');
const START = 'POST /chat/conversations/start-whatsapp';

let sim: RunningSimulator;
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  await sim?.close();
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outreach-host-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function job(options: Parameters<typeof campaign>[0]): Promise<Campaign> {
  const c = await campaign(options);
  cleanups.push(() => c.cleanup());
  return c;
}

function envFor(store: string, stateDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STORE: store, OUTREACH_STATE_DIR: stateDir, OUTREACH_LEASE_SECONDS: '2', ...extra };
}

interface Running {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

function start(args: string[], env: NodeJS.ProcessEnv): Running {
  const child = spawn(process.execPath, [cliPath, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, exited, output: () => out };
}

const starts = () => sim.state.counters.byEndpoint[START] ?? 0;

function everyoneOnce(c: Campaign): void {
  for (const phone of c.phones) expect(sim.state.messageCount(phone), phone).toBe(1);
}

describe.skipIf(!pgUrl)('one PostgreSQL store shared by processes on several hosts', () => {
  it('lets one process run a job and refuses a second, naming the holder, its host and when its lease ends', async () => {
    sim = await startSimulator({ seed: 1 });
    const store = schemaUrl(pgUrl);
    const c = await job({ rows: 200, job: { rate: { per_second: 30, concurrency: 2 } } });
    const a = start(['run', c.jobFile, '--no-progress'], envFor(store, await folder()));
    await waitFor(() => starts() >= 5 || a.child.exitCode !== null);
    const b = await runCli(['run', c.jobFile, '--no-progress'], { env: envFor(store, await folder()) });
    expect(b.code).toBe(2);
    expect(b.stderr).toContain(`pid ${a.child.pid}`);
    expect(b.stderr).toMatch(/host \S+/);
    expect(b.stderr).toMatch(/lease/);
    expect(await a.exited).toBe(0);
    everyoneOnce(c);
  }, 60_000);

  it('takes over a killed owner\'s job from another folder once its lease ends, and nobody gets a second message', async () => {
    sim = await startSimulator({ seed: 2, faults: { latencyMs: 30, latencyJitterMs: 20 } });
    const store = schemaUrl(pgUrl);
    const c = await job({ rows: 80, job: { rate: { per_second: 100, concurrency: 4 } } });
    const a = start(['run', c.jobFile, '--no-progress'], envFor(store, await folder()));
    await waitFor(() => starts() >= 20 || a.child.exitCode !== null);
    a.child.kill('SIGKILL');
    await a.exited;
    const other = await folder();
    await new Promise((r) => setTimeout(r, 300));
    // The killed owner's lease runs 2 s: until then the job is refused, then the next run takes it over and says so.
    let b = await runCli(['resume', c.jobFile, '--no-progress'], { env: envFor(store, other) });
    for (let i = 0; b.code === 2 && i < 20; i++) {
      expect(b.stderr).toMatch(/lease/);
      await new Promise((r) => setTimeout(r, 500));
      b = await runCli(['resume', c.jobFile, '--no-progress'], { env: envFor(store, other) });
    }
    expect(b.stdout + b.stderr).toMatch(/took (the job )?over/i);
    const reconciled = await runCli(['reconcile', c.jobFile, '--settle-minutes', '0'], { env: envFor(store, other) });
    expect([0, 1]).toContain(reconciled.code);
    const resumed = await runCli(['resume', c.jobFile, '--no-progress'], { env: envFor(store, other) });
    expect(resumed.code).toBe(0);
    everyoneOnce(c);
  }, 90_000);

  it('stops a paused owner that wakes after a take-over: it sends nothing more (exit 3), the new owner finishes', async () => {
    sim = await startSimulator({ seed: 3 });
    const store = schemaUrl(pgUrl);
    const c = await job({ rows: 80, job: { rate: { per_second: 20, concurrency: 2 } } });
    const a = start(['run', c.jobFile, '--no-progress'], envFor(store, await folder()));
    await waitFor(() => starts() >= 10 || a.child.exitCode !== null);
    a.child.kill('SIGSTOP');
    const other = await folder();
    let b = await runCli(['resume', c.jobFile, '--no-progress'], { env: envFor(store, other, { OUTREACH_LEASE_SECONDS: '2' }) });
    for (let i = 0; b.code === 2 && i < 20; i++) {
      await new Promise((r) => setTimeout(r, 500));
      b = await runCli(['resume', c.jobFile, '--no-progress'], { env: envFor(store, other) });
    }
    // In doubt ones (in flight at the pause) are settled by reconcile, then the rest sent.
    await runCli(['reconcile', c.jobFile, '--settle-minutes', '0'], { env: envFor(store, other) });
    const done = await runCli(['resume', c.jobFile, '--no-progress'], { env: envFor(store, other) });
    expect(done.code).toBe(0);
    const before = starts();
    a.child.kill('SIGCONT');
    expect(await a.exited).toBe(3);
    expect(a.output()).toMatch(/taken over|lease/i);
    expect(starts()).toBe(before);
    everyoneOnce(c);
  }, 120_000);

  it('takes over at once, on the same host, a lease whose process was killed; status says its owner is gone meanwhile; nobody gets a second message', async () => {
    sim = await startSimulator({ seed: 12, faults: { latencyMs: 30, latencyJitterMs: 20 } });
    const store = schemaUrl(pgUrl);
    const c = await job({ rows: 60, job: { rate: { per_second: 100, concurrency: 4 } } });
    // A lease of five minutes: a take-over that waited for its lapse would be refused for that long.
    const env = envFor(store, await folder(), { OUTREACH_LEASE_SECONDS: '300' });
    const a = start(['run', c.jobFile, '--no-progress'], env);
    await waitFor(() => starts() >= 15 || a.child.exitCode !== null);
    a.child.kill('SIGKILL');
    await a.exited;
    const status = await runCli(['status', c.jobFile], { env });
    expect(status.stdout).toMatch(/not running: the run `outreach run` by pid \d+ on host \S+ .* is gone \(its process ended without letting the job go\); a run on this host takes the job over at once/);
    const json = JSON.parse((await runCli(['status', c.jobFile, '--json'], { env })).stdout) as { running: { gone?: unknown } };
    expect(json.running.gone).toBeDefined();
    const b = await runCli(['resume', c.jobFile, '--no-progress'], { env });
    expect(b.stderr).not.toMatch(/already running/);
    expect(b.stdout + b.stderr).toMatch(/took (the job )?over/i);
    expect((await runCli(['reconcile', c.jobFile, '--settle-minutes', '0'], { env })).code).not.toBe(2);
    expect((await runCli(['resume', c.jobFile, '--no-progress'], { env })).code).toBe(0);
    everyoneOnce(c);
  }, 90_000);

  it("gives a killed run's places of the messaging limit back at once on its host, and the next run sends a contact deferred daily_limit as soon as there is room", async () => {
    sim = await startSimulator({ seed: 13, faults: { latencyMs: 40, latencyJitterMs: 10 } });
    const store = schemaUrl(pgUrl);
    const limits = { daily_unique_recipients: 20, min_hours_between_messages: 0, repeat_message: true };
    const slow = await job({ rows: 40, name: 'slow', job: { limits, rate: { per_second: 5, concurrency: 1 } } });
    const other = await job({ rows: 20, name: 'other', firstRow: 2000, job: { limits, rate: { per_second: 200, concurrency: 4 } } });
    const env = envFor(store, await folder(), { OUTREACH_LEASE_SECONDS: '300' });
    // The slow run holds places for its next seconds of sending; the other job gets what is left and defers the rest.
    const a = start(['run', slow.jobFile, '--no-progress'], env);
    await waitFor(() => starts() >= 2 || a.child.exitCode !== null);
    const first = JSON.parse((await runCli(['run', other.jobFile, '--json', '--no-progress'], { env })).stdout) as { this_run: { sent: number; deferred: number } };
    expect(first.this_run.deferred).toBeGreaterThan(0);
    a.child.kill('SIGKILL');
    await a.exited;
    // At once: no lapse waited for. The deferred contacts are decided again, not left until a day later.
    const again = JSON.parse((await runCli(['run', other.jobFile, '--json', '--no-progress'], { env })).stdout) as { this_run: { sent: number; deferred: number } };
    // Counted once nothing more can arrive: the killed run's one request in flight (concurrency 1) may reach
    // the platform after the kill, or keep its place (written ahead) without reaching it.
    const sentBySlow = slow.phones.filter((p) => sim.state.messageCount(p) > 0).length;
    expect(first.this_run.sent + again.this_run.sent).toBeLessThanOrEqual(20 - sentBySlow);
    expect(first.this_run.sent + again.this_run.sent).toBeGreaterThanOrEqual(20 - sentBySlow - 1);
    expect(starts()).toBeLessThanOrEqual(20);
  }, 90_000);

  it('keeps two jobs on two processes within one messaging limit together', async () => {
    sim = await startSimulator({ seed: 4 });
    const store = schemaUrl(pgUrl);
    const limits = { daily_unique_recipients: 30, min_hours_between_messages: 0, repeat_message: true };
    const one = await job({ rows: 40, name: 'one', job: { limits, rate: { per_second: 200, concurrency: 4 } } });
    const two = await job({ rows: 40, name: 'two', firstRow: 1000, job: { limits, rate: { per_second: 200, concurrency: 4 } } });
    const a = start(['run', one.jobFile, '--no-progress'], envFor(store, await folder()));
    const b = start(['run', two.jobFile, '--no-progress'], envFor(store, await folder()));
    await Promise.all([a.exited, b.exited]);
    expect(starts()).toBeLessThanOrEqual(30);
    expect(starts()).toBeGreaterThan(0);
  }, 60_000);
});

describe.skipIf(!pgUrl)('the webhook as a service on one host, the runners on others', () => {
  it('honours the opt-outs and the reply windows the webhook process wrote, in a runner process elsewhere', async () => {
    sim = await startSimulator({ seed: 7 });
    const store = schemaUrl(pgUrl);
    const c = await job({
      rows: 6,
      job: { message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } }, text: 'Oi {{name}}, seu cupom é {{coupon}}' } },
    });
    const hook = start(['webhook', '--port', '0'], envFor(store, await folder(), { OUTREACH_WEBHOOK_SECRET: 'whsec-test' }));
    await waitFor(() => /listening on (\S+)/.test(hook.output()) || hook.child.exitCode !== null);
    const url = /listening on (\S+)/.exec(hook.output())?.[1] ?? '';
    sim.state.setWebhook({ url, secret: 'whsec-test' });
    const [stop, wrote] = c.phones;
    sim.state.inbound(stop ?? '', 'STOP');
    sim.state.inbound(wrote ?? '', 'Oi, tem promoção?');
    await sim.state.webhookIdle();
    const env = envFor(store, await folder());
    await waitFor(async () => (await runCli(['suppress', 'list', '--json'], { env })).stdout.includes(stop ?? '-'), 20_000, 250);
    const plan = await runCli(['plan', c.jobFile, '--json'], { env });
    expect(plan.code).toBe(0);
    const planned = JSON.parse(plan.stdout);
    expect(planned.planned_by_action).toEqual({ template: 4, text: 1, 'skip:suppressed': 1 });
    const run = await runCli(['run', c.jobFile, '--no-progress'], { env });
    expect(run.code).toBe(0);
    expect(sim.state.messageCount(stop ?? '')).toBe(0);
  }, 60_000);
});

describe.skipIf(!pgUrl)('through PgBouncer in transaction pooling', () => {
  it('runs, resumes, reports and holds the lease through the pooler', async () => {
    sim = await startSimulator({ seed: 6 });
    const u = new URL(pgUrl);
    const bouncer = await startPgbouncer({ port: Number(u.port) });
    cleanups.push(() => bouncer.stop());
    const store = schemaUrl(bouncer.url);
    const c = await job({ rows: 50, job: { limits: { daily_unique_recipients: 1000 } } });
    const dir = await folder();
    const a = start(['run', c.jobFile, '--no-progress'], envFor(store, dir));
    await waitFor(() => starts() >= 5 || a.child.exitCode !== null);
    const refused = await runCli(['run', c.jobFile, '--no-progress'], { env: envFor(store, await folder()) });
    expect(a.child.exitCode === null ? refused.code : 2).toBe(2);
    expect(await a.exited).toBe(0);
    const status = await runCli(['status', c.jobFile, '--json'], { env: envFor(store, await folder()) });
    expect(JSON.parse(status.stdout).byStatus.sent).toBe(50);
    everyoneOnce(c);
  }, 60_000);
});
