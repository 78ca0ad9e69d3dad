import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { trackJob, type TrackJobOptions } from '../../src/app/index.js';
import { createFileStore } from '../../src/checkpoint/index.js';
import { unlimitedLimiter, type LimiterOptions } from '../../src/run/index.js';
import { startSimulator, type RunningSimulator, type SimDelivery } from '../../src/sim/index.js';
import { campaign, parseCsv, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

const READS = 'GET /chat/conversations/{id}/messages';
let sim: RunningSimulator;
let c: Campaign;
let api: ApiClient | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
  await sim?.close();
  await c?.cleanup();
});

function env() {
  return { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
}

async function sentCampaign(rows: number, delivery: SimDelivery, job: Record<string, unknown> = {}) {
  sim = await startSimulator({ seed: 9, delivery: { failed: 0, ...delivery } });
  c = await campaign({ rows, job });
  expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(0);
}

function track(options: Partial<TrackJobOptions> = {}) {
  api ??= createApiClient({ baseUrl: sim.url, token: sim.token });
  return trackJob(c.jobFile, { store: createFileStore(c.stateDir), api, owner: { pid: process.pid }, ...options });
}

const reads = (from = 0) => sim.state.requests.slice(from).filter((r) => r.endpoint === READS);

describe('track reads at its own pace', () => {
  it("reads through a limiter at track.per_second, not behind the job's per_second of messages", async () => {
    // The run itself sends at 200/s; the job is then set to 1 message a second, as a slow campaign would be.
    await sentCampaign(25, { delivered: 1, read: 0 });
    const job = JSON.parse(await readFile(c.jobFile, 'utf8')) as Record<string, unknown>;
    await import('node:fs/promises').then((fs) => fs.writeFile(c.jobFile, JSON.stringify({ ...job, rate: { per_second: 1, concurrency: 8 } })));
    const limiters: LimiterOptions[] = [];
    const outcome = await track({ createLimiter: (o) => (limiters.push(o), unlimitedLimiter()) });
    expect(limiters).toEqual([{ perSecond: 100 }]);
    expect(outcome.checked).toBe(25);
    expect(reads()).toHaveLength(25);

    await import('node:fs/promises').then((fs) => fs.writeFile(c.jobFile, JSON.stringify({ ...job, rate: { per_second: 1 }, track: { per_second: 40 } })));
    await track({ createLimiter: (o) => (limiters.push(o), unlimitedLimiter()) });
    expect(limiters[1]).toEqual({ perSecond: 40 });
  });

  it('does not read again the message of a contact who replied, nor one read or failed', async () => {
    await sentCampaign(6, { delivered: 1, read: 0 });
    const first = await track();
    expect(first.checked).toBe(6);
    // One contact replied (the webhook recorded its inbound message after the send).
    const rows = parseCsv(await readFile(path.join(c.stateDir, 'cli-test', 'report.csv'), 'utf8'));
    const replier = rows[0]!;
    const store = createFileStore(c.stateDir);
    const log = await store.openEventsLog();
    await log.record({
      message_id: 'in-1',
      conversation_id: replier.conversation_id!,
      client_id: replier.client_id!,
      direction: 'inbound',
      sender_type: 'client',
      content: 'quero!',
      created_at: new Date(Date.now() + 60_000).toISOString(),
      received_at: new Date(Date.now() + 60_000).toISOString(),
      source: 'webhook',
      phone: replier.phone!,
    });
    await log.close();
    await store.close();
    const from = sim.state.requests.length;
    const second = await track();
    expect(second.checked).toBe(5);
    expect(reads(from)).toHaveLength(5);
    const conversationsRead = reads(from).map((r) => r.path);
    expect(conversationsRead.some((p) => p.includes(`/${replier.conversation_id}/`))).toBe(false);
  });

  it('says how many messages a pass reads and about how long it takes at its pace', async () => {
    await sentCampaign(8, { delivered: 1, read: 0 }, { track: { per_second: 4 } });
    const seen: Array<{ due: number; perSecond: number; estimatedMs: number }> = [];
    await track({ onPassStart: (info) => seen.push(info), createLimiter: () => unlimitedLimiter() });
    expect(seen).toEqual([{ job: 'cli-test', pass: 1, due: 8, perSecond: 4, estimatedMs: 2000 }]);
    const r = await cli(['track', c.jobFile], env());
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('track of cli-test: reading 8 messages that can still change at up to 4/s: about 2.0s a pass\n');
  });
});
