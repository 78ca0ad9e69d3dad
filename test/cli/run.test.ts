import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator, type SimFaults } from '../../src/sim/index.js';
import { campaign, parseCsv, type Campaign } from '../helpers/campaign.js';
import { cliPath, runCli } from '../helpers/cli.js';
import { cli } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';

const START = 'POST /chat/conversations/start-whatsapp';
let sim: RunningSimulator;
let c: Campaign;

afterEach(async () => {
  await sim?.close();
  await c?.cleanup();
});

async function setup(opts: Parameters<typeof campaign>[0], faults: SimFaults = {}) {
  sim = await startSimulator({ faults, seed: 3 });
  c = await campaign(opts);
}

function env(extra: Record<string, string> = {}) {
  return { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir, ...extra } };
}

async function report() {
  return parseCsv(await readFile(path.join(c.stateDir, 'cli-test', 'report.csv'), 'utf8'));
}

describe('outreach run', () => {
  it('sends every usable row once, writes the report and the rejects, and exits 0', async () => {
    await setup({ rows: 30, bad: 2, emptyCoupon: 1 });
    const r = await runCli(['run', c.jobFile, '--no-progress'], env());

    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/sent\s+30/);
    const rows = await report();
    expect(Object.keys(rows[0]!).slice(0, 8)).toEqual(['phone', 'status', 'action', 'conversation_id', 'client_id', 'message_id', 'attempts', 'error']);
    expect(rows).toHaveLength(30);
    expect(rows.every((row) => row.status === 'sent' && row.action === 'template' && /^\d+$/.test(row.conversation_id!))).toBe(true);
    for (const phone of c.phones) expect(sim.state.startWhatsappCount(phone)).toBe(1);
    const rejects = parseCsv(await readFile(path.join(c.stateDir, 'cli-test', 'rejects.csv'), 'utf8'));
    expect(rejects.map((x) => [x.line, x.reason])).toEqual([
      ['32', 'phone_invalid'],
      ['33', 'phone_invalid'],
      ['34', 'missing_variable:coupon'],
    ]);

    const status = await runCli(['status', c.jobFile, '--json'], env());
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).byStatus).toMatchObject({ sent: 30, pending: 0 });
  });

  it('stops at the first request when the token is refused and exits 3', async () => {
    await setup({ rows: 5 });
    const r = await runCli(['run', c.jobFile, '--no-progress'], env({ OUTREACH_TOKEN: 'not-the-token' }));

    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/the token was refused/);
    expect(r.stderr).not.toMatch(/at .*\.js/); // no stack trace
    expect(sim.state.counters.total).toBe(1);
  });

  it('exits 1 with failed contacts, and resume heals 502s through the same conversations', async () => {
    await setup({ rows: 20, job: { channel_id: 12, message: { text: 'Oi {{name}}' }, retry: { attempts: 0, backoff_ms: 10 } } }, { wwDown: true });
    const first = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(first.code).toBe(1);
    expect((await report()).every((row) => row.status === 'failed' && /^\d+$/.test(row.conversation_id!))).toBe(true);

    sim.state.setFaults({ wwDown: false });
    const healed = await cli(['resume', c.jobFile, '--no-progress'], env());
    expect(healed.code).toBe(0);
    const rows = await report();
    expect(rows.every((row) => row.status === 'sent')).toBe(true);
    for (const phone of c.phones) expect(sim.state.startWhatsappCount(phone)).toBe(1);
    expect(sim.state.requests.filter((q) => q.path.endsWith('/messages') && q.method === 'POST')).toHaveLength(20);
  });

  it('refuses a second run of the same job while one is going, naming its pid', async () => {
    await setup({ rows: 40, job: { rate: { per_second: 10, concurrency: 1 } } });
    const child = spawn(process.execPath, [cliPath, 'run', c.jobFile, '--no-progress'], { env: { ...process.env, ...env().env }, stdio: 'ignore' });
    try {
      await waitFor(() => sim.state.counters.total > 3);
      const second = await cli(['run', c.jobFile, '--no-progress'], env());
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`pid ${child.pid}`);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('after kill -9 mid-run, running again sends nobody a second first message unless reported in doubt', async () => {
    await setup({ rows: 150, job: { rate: { per_second: 100, concurrency: 8 } } }, { latencyMs: 30 });
    const child = spawn(process.execPath, [cliPath, 'run', c.jobFile, '--no-progress'], { env: { ...process.env, ...env().env }, stdio: 'ignore' });
    await waitFor(() => sim.state.counters.byEndpoint[START]! > 40);
    // From here the platform holds every answer: at most the requests in flight (8) arrive before the kill,
    // however slow this machine is, so the kill always lands mid-run.
    sim.state.setFaults({ latencyMs: 600_000 });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    sim.state.setFaults({ latencyMs: 30 });
    const before = sim.state.counters.byEndpoint[START]!;
    expect(before).toBeLessThan(150);

    const again = await cli(['run', c.jobFile, '--no-progress'], env());
    expect([0, 1]).toContain(again.code);
    const rows = await report();
    expect(rows).toHaveLength(150);
    for (const row of rows) {
      const starts = sim.state.startWhatsappCount(row.phone!);
      if (row.status === 'in_doubt') {
        expect(starts).toBeLessThanOrEqual(1);
      } else {
        expect(row.status).toBe('sent');
        expect(starts).toBe(1);
      }
    }
  });

  it('on SIGTERM stops taking contacts, records what was in flight, and exits 3', async () => {
    await setup({ rows: 100, job: { rate: { per_second: 20, concurrency: 2 } } });
    const child = spawn(process.execPath, [cliPath, 'run', c.jobFile, '--no-progress'], { env: { ...process.env, ...env().env }, stdio: 'ignore' });
    await waitFor(() => sim.state.counters.total > 10);
    child.kill('SIGTERM');
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(3);
    const rows = await report();
    const sent = rows.filter((r) => r.status === 'sent').length;
    expect(sent).toBe(sim.state.counters.byEndpoint[START]);
    expect(rows.filter((r) => r.status === 'pending').length).toBe(100 - sent);
    const status = await cli(['status', c.jobFile, '--json'], env());
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout).byStatus).toMatchObject({ sent, pending: 100 - sent });
  });

  it('does not pin the message when a run is refused before sending (too many rejects)', async () => {
    await setup({ rows: 2, bad: 2 });
    expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(2);
    const job = JSON.parse(await readFile(c.jobFile, 'utf8'));
    job.message.template = { name: 'welcome', language: 'pt_BR', variables: { '1': '{{name}}' } };
    job.limits = { max_reject_ratio: 0.6 };
    await writeFile(c.jobFile, JSON.stringify(job));
    expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(0);
    expect(sim.state.counters.byEndpoint[START]).toBe(2);
  });

  it('refuses to go on when the message changed since the checkpoint started, unless --force-changed', async () => {
    await setup({ rows: 3, job: { message: { template: { name: 'welcome', language: 'pt_BR', variables: { '1': '{{name}}' } } } } });
    expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(0);
    const job = JSON.parse(await readFile(c.jobFile, 'utf8'));
    job.message.template = { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } };
    await writeFile(c.jobFile, JSON.stringify(job));

    const refused = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/changed since this job's checkpoint started.*message\.template/);
    expect((await cli(['run', c.jobFile, '--no-progress', '--force-changed'], env())).code).toBe(0);
    // The new content is now the job's: a plain run (a nightly cron) goes on without the flag.
    expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(0);
  });
});

