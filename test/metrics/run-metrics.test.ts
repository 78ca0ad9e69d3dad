import { appendFile, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, phoneOf, type Campaign } from '../helpers/campaign.js';
import { runCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { checkMetrics, promtoolBin, pushgatewayBin, samples, skipWithout, startPushgateway, type RunningPushgateway } from '../helpers/prometheus-tools.js';

const STATUSES = ['sent', 'failed', 'in_doubt', 'skipped', 'deferred', 'pending'] as const;
let sim: RunningSimulator;
let c: Campaign;
let gateway: RunningPushgateway;

const skip = skipWithout(pushgatewayBin, 'prometheus-pushgateway') || skipWithout(promtoolBin, 'prometheus');

beforeAll(async () => {
  if (!skip) gateway = await startPushgateway();
});
afterAll(async () => {
  await gateway?.close();
});
afterEach(async () => {
  await sim?.close();
  await c?.cleanup();
});

interface Status {
  byStatus: Record<(typeof STATUSES)[number], number>;
  messaging: { room?: number };
}

async function status(env: Record<string, string>): Promise<Status> {
  const r = await runCli(['status', c.jobFile, '--json'], { env });
  return JSON.parse(r.stdout) as Status;
}

/** The value of `name` whose labels include `labels`; undefined when there is none. */
function value(text: string, name: string, labels: Record<string, string>): number | undefined {
  return samples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

function contactsOf(text: string, labels: Record<string, string>): Record<string, number | undefined> {
  return Object.fromEntries(STATUSES.map((s) => [s, value(text, 'outreach_contacts', { ...labels, status: s })]));
}

describe.skipIf(skip)("a run's metrics, in its textfile and its Pushgateway group", () => {
  it('equal `status --json`, count first messages and refusals, and keep the last success through a failed run', async () => {
    sim = await startSimulator({ seed: 5, faults: { providerErrors: { 131026: 0.15, 131050: 0.1 } } });
    c = await campaign({ rows: 40, bad: 1, job: { limits: { daily_unique_recipients: 1000 } } });
    const file = path.join(c.dir, 'outreach-cli-test.prom');
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir, OUTREACH_PUSHGATEWAY: gateway.url };

    const first = await runCli(['run', c.jobFile, '--no-progress', '--metrics-file', file], { env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(1); // some numbers cannot receive WhatsApp: routine, the run succeeded
    const s1 = await status(env);
    expect(s1.byStatus.failed).toBeGreaterThan(0);

    const text = await readFile(file, 'utf8');
    expect((await stat(file)).mode & 0o777).toBe(0o644);
    expect(await checkMetrics(text)).toEqual({ code: 0, output: '' });
    expect(contactsOf(text, { campaign: 'cli-test' })).toEqual(s1.byStatus);
    expect(value(text, 'outreach_messages_sent_total', { campaign: 'cli-test', channel: '10' })).toBe(s1.byStatus.sent);
    const undeliverable = value(text, 'outreach_provider_errors_total', { campaign: 'cli-test', class: 'undeliverable' }) ?? 0;
    const optedOut = value(text, 'outreach_provider_errors_total', { campaign: 'cli-test', class: 'opted_out' }) ?? 0;
    expect(undeliverable + optedOut).toBe(s1.byStatus.failed);
    expect(value(text, 'outreach_optouts_total', { source: 'provider' })).toBe(optedOut);
    expect(value(text, 'outreach_messaging_limit_remaining', { company: '1' })).toBe(s1.messaging.room);
    expect(value(text, 'outreach_messaging_limit', { company: '1' })).toBe(1000);
    expect(value(text, 'outreach_send_rate_per_second', { campaign: 'cli-test', channel: '10' })).toBe(0);
    expect(value(text, 'outreach_rate_asked_per_second', { campaign: 'cli-test', channel: '10' })).toBe(0);
    const success = value(text, 'outreach_run_last_success_timestamp_seconds', { campaign: 'cli-test' });
    expect(success).toBeGreaterThan(1_700_000_000);
    expect(text).not.toMatch(/\+55|Ana /); // no phone, no name

    const pushed = await gateway.scrape();
    const group = { job: 'outreach', campaign: 'cli-test', command: 'run' };
    expect(contactsOf(pushed, group)).toEqual(s1.byStatus);
    expect(value(pushed, 'outreach_run_last_success_timestamp_seconds', group)).toBe(success);

    // Ten more rows, and the provider now blocks the account: the run stops (exit 3), a failed run.
    await appendFile(path.join(c.dir, 'contacts.csv'), Array.from({ length: 10 }, (_, i) => `${phoneOf(100 + i)};Ana ${100 + i};BF${i}\n`).join(''));
    sim.state.setFaults({ providerErrors: { 131048: 1 } });
    const second = await runCli(['run', c.jobFile, '--no-progress', '--metrics-file', file], { env });
    expect(second.code).toBe(3);
    const s2 = await status(env);
    const after = await readFile(file, 'utf8');
    expect(contactsOf(after, { campaign: 'cli-test' })).toEqual(s2.byStatus);
    expect(value(after, 'outreach_run_last_success_timestamp_seconds', { campaign: 'cli-test' })).toBe(success);
    expect(value(after, 'outreach_provider_errors_total', { campaign: 'cli-test', class: 'account' })).toBeGreaterThan(0);
    const pushedAfter = await gateway.scrape();
    expect(contactsOf(pushedAfter, group)).toEqual(s2.byStatus);
    expect(value(pushedAfter, 'outreach_run_last_success_timestamp_seconds', group)).toBe(success);
  });

  it("pushes as soon as it sends, the job's rate as the rate asked, and 0 once it has ended", async () => {
    sim = await startSimulator({ seed: 5 });
    c = await campaign({ rows: 12, name: 'slow-one', job: { rate: { per_second: 4, concurrency: 1 } } });
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir, OUTREACH_PUSHGATEWAY: gateway.url };
    const group = { job: 'outreach', campaign: 'slow-one', command: 'run' };
    const running = runCli(['run', c.jobFile, '--no-progress'], { env });
    let asked: number | undefined;
    await waitFor(async () => (asked = value(await gateway.scrape(), 'outreach_rate_asked_per_second', { ...group, channel: '10' })) !== undefined);
    expect(asked).toBe(4); // the last push of a run says 0: this one came while it sent
    expect((await running).code).toBe(0);
    const after = await gateway.scrape();
    expect(value(after, 'outreach_rate_asked_per_second', { ...group, channel: '10' })).toBe(0);
    expect(value(after, 'outreach_messages_sent_total', { ...group, channel: '10' })).toBe(12);
  });

  it('refuses a metrics file whose folder is not there, or a Pushgateway that is not a URL, before sending (exit 2)', async () => {
    sim = await startSimulator({ seed: 5 });
    c = await campaign({ rows: 3 });
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir };
    const missing = path.join(c.dir, 'nowhere', 'x.prom');
    const r = await runCli(['run', c.jobFile, '--no-progress', '--metrics-file', missing], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`outreach: --metrics-file ${missing}: the folder ${path.dirname(missing)} is not there; create it`);
    const u = await runCli(['run', c.jobFile, '--no-progress'], { env: { ...env, OUTREACH_PUSHGATEWAY: 'pushgateway:9091' } });
    expect(u.code).toBe(2);
    expect(u.stderr).toContain('outreach: OUTREACH_PUSHGATEWAY: "pushgateway:9091" is not the address of a Pushgateway; give it as http://host:9091');
    expect(sim.state.counters.total).toBe(0);
  });
});
