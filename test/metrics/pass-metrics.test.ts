import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { runCli } from '../helpers/cli.js';
import { checkMetrics, promtoolBin, pushgatewayBin, samples, skipWithout, startPushgateway, type RunningPushgateway } from '../helpers/prometheus-tools.js';

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

function value(text: string, name: string, labels: Record<string, string>): number | undefined {
  return samples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

describe.skipIf(skip)('the metrics of track and sync', () => {
  it("track writes its own last success and duration for the campaign, in the textfile and in the group of its command", async () => {
    sim = await startSimulator({ seed: 2 });
    c = await campaign({ rows: 5 });
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir };
    expect((await runCli(['run', c.jobFile, '--no-progress'], { env })).code).toBe(0);
    const file = path.join(c.dir, 'track.prom');
    const r = await runCli(['track', c.jobFile, '--metrics-file', file, '--pushgateway', gateway.url], { env });
    expect(r.code).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(await checkMetrics(text)).toEqual({ code: 0, output: '' });
    expect(value(text, 'outreach_track_last_success_timestamp_seconds', { campaign: 'cli-test' })).toBeGreaterThan(1_700_000_000);
    expect(value(text, 'outreach_track_duration_seconds', { campaign: 'cli-test' })).toBeGreaterThanOrEqual(0);
    expect(text).not.toContain('outreach_contacts'); // the run's own: two files never hold the same series
    const pushed = await gateway.scrape();
    expect(value(pushed, 'outreach_track_last_success_timestamp_seconds', { job: 'outreach', campaign: 'cli-test', command: 'track' })).toBe(
      value(text, 'outreach_track_last_success_timestamp_seconds', { campaign: 'cli-test' }),
    );
  });

  it('sync counts the opt-out replies it found, and a sync that fails keeps the last success', async () => {
    sim = await startSimulator({ seed: 2 });
    c = await campaign({ rows: 1 });
    sim.state.inbound('+5511987650009', 'STOP');
    const file = path.join(c.dir, 'sync.prom');
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir, OUTREACH_METRICS_FILE: file };
    const ok = await runCli(['sync'], { env });
    expect(ok.code).toBe(0);
    const text = await readFile(file, 'utf8');
    expect(await checkMetrics(text)).toEqual({ code: 0, output: '' });
    expect(value(text, 'outreach_optouts_total', { source: 'reply_keyword' })).toBe(1);
    const success = value(text, 'outreach_sync_last_success_timestamp_seconds', {});
    expect(success).toBeGreaterThan(1_700_000_000);

    const refused = await runCli(['sync'], { env: { ...env, OUTREACH_TOKEN: 'wrong' } });
    expect(refused.code).toBe(3);
    const after = await readFile(file, 'utf8');
    expect(value(after, 'outreach_sync_last_success_timestamp_seconds', {})).toBe(success);
    expect(value(after, 'outreach_optouts_total', { source: 'reply_keyword' })).toBeUndefined();
  });
});
