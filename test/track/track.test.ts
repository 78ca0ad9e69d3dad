import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { trackJob, type TrackJobOptions } from '../../src/app/index.js';
import { deliveryOf, isSettled } from '../../src/app/track/track-pass.js';
import { createFileStore, type SentState } from '../../src/checkpoint/backends.js';
import { createRateLimiter, unlimitedLimiter, type LimiterOptions } from '../../src/run/index.js';
import { startSimulator, type RunningSimulator, type SimDelivery } from '../../src/sim/index.js';
import { campaign, parseCsv, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';
import { virtualTime } from '../helpers/virtual-time.js';

const HOUR = 3_600_000;
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

function reads(from = 0) {
  return sim.state.requests.slice(from).filter((r) => r.endpoint === READS);
}

describe('outreach track', () => {
  it('reads through the limiter, each read after its permit, never more than the rate in a second', async () => {
    await sentCampaign(30, { delivered: 1, read: 0 }, { rate: { per_second: 15, concurrency: 4 } });
    const from = sim.state.requests.length;
    // The limiter's own time moves only when it waits: the rate is counted, not timed (its accuracy in wall time is in `npm run bench`).
    const time = virtualTime();
    const real = createRateLimiter({ perSecond: 15, clock: time.now, sleep: time.sleep });
    const passed: number[] = [];
    const limiter = { ...real, pace: async () => (await real.pace(), void passed.push(time.now())) };
    const outcome = await track({ limiter });
    expect(outcome.checked).toBe(30);
    expect(reads(from)).toHaveLength(30);
    expect(passed).toHaveLength(30);
    for (let i = 15; i < passed.length; i++) expect(passed[i]! - passed[i - 15]!).toBeGreaterThanOrEqual(1000);
  });

  it('waits out 429s on its reads (slowing its rate) and reads every message', async () => {
    await sentCampaign(40, { delivered: 1, read: 0 }, { rate: { per_second: 200, concurrency: 8 } });
    sim.state.setFaults({ rateLimitPerSecond: 15 });
    const outcome = await track();
    expect(outcome).toMatchObject({ checked: 40, errors: 0 });
    expect(sim.state.counters.rateLimited).toBeGreaterThan(0);
  });

  it('records nothing new when nothing changed, and reads only the contacts not settled', async () => {
    await sentCampaign(20, { delivered: 1, read: 0.5, deliveredAfterMs: [1000, 1000], readAfterMs: [60_000, 60_000] });
    sim.state.advanceClock(2 * 60_000);
    const first = await track();
    expect(first).toMatchObject({ checked: 20, changed: 20 });
    const read = first.funnel.read;
    expect(read).toBeGreaterThan(0);
    const from = sim.state.requests.length;
    const second = await track();
    expect(second).toMatchObject({ checked: 20 - read, changed: 0, unsettled: 20 - read });
    expect(reads(from)).toHaveLength(20 - read);
  });

  it('stops reading a message older than track.max_age_hours once it was read back', async () => {
    await sentCampaign(10, { delivered: 1, read: 0 }, { track: { max_age_hours: 72 } });
    sim.state.advanceClock(HOUR);
    expect(await track()).toMatchObject({ checked: 10, unsettled: 10 });
    const from = sim.state.requests.length;
    expect(await track({ clock: () => Date.now() + 73 * HOUR })).toMatchObject({ checked: 0, unsettled: 0 });
    expect(reads(from)).toHaveLength(0);
  });

  it('reads a message once even when it is already older than track.max_age_hours', async () => {
    await sentCampaign(3, { delivered: 1, read: 0 }, { track: { max_age_hours: 72 } });
    expect(await track({ clock: () => Date.now() + 100 * HOUR })).toMatchObject({ checked: 3, changed: 3, unsettled: 0 });
  });

  it('repeats passes until settled, waiting between them, and stops early on its signal', async () => {
    await sentCampaign(12, { delivered: 1, read: 1, deliveredAfterMs: [1000, 1000], readAfterMs: [10 * 60_000, 30 * 60_000] });
    const passes: number[] = [];
    const outcome = await track({
      untilSettled: true,
      intervalMs: 10 * 60_000,
      sleep: async (ms) => void sim.state.advanceClock(ms),
      onPass: (pass) => passes.push(pass.unsettled),
    });
    expect(outcome.unsettled).toBe(0);
    expect(outcome.funnel).toMatchObject({ sent: 12, delivered: 12, read: 12 });
    expect(outcome.passes).toBeGreaterThan(1);
    expect(passes.at(-1)).toBe(0);
  });

  it('stops between passes when its signal aborts', async () => {
    await sentCampaign(3, { delivered: 1, read: 0 });
    const stop = new AbortController();
    const stopped = await track({ untilSettled: true, intervalMs: 60_000, signal: stop.signal, sleep: async () => stop.abort() });
    expect(stopped).toMatchObject({ passes: 1, stopped: 'interrupted', unsettled: 3 });
  });

  it('records a delivery failure with its code, and lists the phones that stopped marketing messages (131050)', async () => {
    await sentCampaign(12, { delivered: 0, failed: 1, failureCodes: { 131050: 1, 131026: 1 }, failedAfterMs: [1000, 1000] });
    sim.state.advanceClock(2000);
    const r = await cli(['track', c.jobFile, '--json'], env());
    expect(r.code).toBe(0);
    const outcome = JSON.parse(r.stdout);
    const stopped = c.phones.filter((p) => {
      const client = sim.state.clientByPhone(p)!;
      return [...sim.state.messages.values()].some((m) => m.senderType === 'user' && m.failureReason.includes('131050') && sim.state.conversations.get(m.conversationId)?.clientId === client.id);
    });
    expect(stopped.length).toBeGreaterThan(0);
    expect([...outcome.optedOut].sort()).toEqual(stopped.sort());
    expect(outcome.funnel).toMatchObject({ sent: 12, failed: 12, delivered: 0 });
    const text = await cli(['track', c.jobFile], env());
    expect(text.stdout).toMatch(/0 messages read/); // all settled: failed
    const view = await createFileStore(c.stateDir).readJob('cli-test');
    const s = view!.states.get(stopped[0]!) as SentState;
    expect(s.delivery).toMatchObject({ status: 'failed', failureCode: 131050, failureReason: '(#131050) User has stopped marketing messages from this business.' });
    const suppressions = await createFileStore(c.stateDir).suppressions();
    for (const phone of stopped) expect(suppressions.get(phone)).toMatchObject({ source: 'provider', reason: expect.stringContaining('131050') });
  });

  it('counts a message not found in its conversation, and exits 3 when the token is refused', async () => {
    await sentCampaign(2, { delivered: 1, read: 0 });
    const store = createFileStore(c.stateDir);
    const job = await store.openJob('cli-test', { pid: process.pid, startedAt: new Date().toISOString(), command: 'test' });
    const s = job.states.get(c.phones[0]!) as SentState;
    await job.record({ t: 'sent', phone: '+5511988887777', via: 'start', action: 'template', conversation_id: s.conversationId, message_id: '999999', at: new Date().toISOString() });
    await job.record({ t: 'sent', phone: '+5511988886666', via: 'start', action: 'template', conversation_id: s.conversationId, message_id: 'abc', at: new Date().toISOString() });
    await job.close();
    const outcome = await track();
    expect(outcome).toMatchObject({ checked: 3, notFound: 1, errors: 1, notDone: 1 });
    expect(outcome.firstError).toMatch(/\+5511988886666: message id "abc" is not a number/);

    const refused = await cli(['track', c.jobFile], { env: { ...env().env, OUTREACH_TOKEN: 'nope' } });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/the token was refused/);
  });

  it('prints each pass with --until-settled and refuses a bad --interval', async () => {
    await sentCampaign(2, { delivered: 1, read: 1, deliveredAfterMs: [0, 0], readAfterMs: [0, 0] });
    sim.state.advanceClock(1000);
    const r = await cli(['track', c.jobFile, '--until-settled', '--interval', '1'], env());
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('track of cli-test: reading 2 messages that can still change at up to 100/s: under a second a pass\ntrack pass 1: 2 messages read, 2 changed, 0 still to watch\n');
    expect(r.stdout).toMatch(/read\s+2\s+100\.0%/);
    const bad = await cli(['track', c.jobFile, '--interval', '0'], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--interval: "0" is not a number of 1 or more/);
  });
});

describe('what a message says of its delivery', () => {
  const base = { deliveryStatus: 'sent', read: false, read_at: null, updatedAt: '2026-01-01T00:00:05.000Z', failureReason: '' };

  it('takes a delivered message’s time from its last change, and keeps it once known', () => {
    expect(deliveryOf({ ...base, deliveryStatus: 'delivered' }, undefined)).toEqual({ status: 'delivered', deliveredAt: base.updatedAt });
    const read = deliveryOf({ ...base, deliveryStatus: 'read', read: true, read_at: '2026-01-01T00:01:00.000Z', updatedAt: '2026-01-01T00:01:00.000Z' }, { status: 'delivered', deliveredAt: base.updatedAt });
    expect(read).toEqual({ status: 'read', deliveredAt: base.updatedAt, readAt: '2026-01-01T00:01:00.000Z' });
  });

  it('reads `read: true` as read, an unknown status as sent, and a failure’s provider code', () => {
    expect(deliveryOf({ ...base, deliveryStatus: 'delivered', read: true, read_at: null }, undefined)).toMatchObject({ status: 'read', readAt: base.updatedAt });
    expect(deliveryOf({ ...base, deliveryStatus: 'queued' }, undefined)).toEqual({ status: 'sent' });
    expect(deliveryOf({ ...base, deliveryStatus: 'failed', failureReason: '(#131026) Message undeliverable.' }, undefined)).toEqual({
      status: 'failed',
      failedAt: base.updatedAt,
      failureCode: 131026,
      failureReason: '(#131026) Message undeliverable.',
    });
    expect(deliveryOf({ ...base, deliveryStatus: 'failed', failureReason: 'gateway lost it' }, undefined)).toEqual({ status: 'failed', failedAt: base.updatedAt, failureReason: 'gateway lost it' });
  });

  it('calls a contact settled when read, failed, or too old once read back', () => {
    const sent = { phone: '+1', status: 'sent', attempts: 1, followups: {}, via: 'start', action: 'template', conversationId: '1', messageId: '1', sentAt: '2026-01-01T00:00:00.000Z' } as SentState;
    const at = Date.parse(sent.sentAt);
    expect(isSettled(sent, at + 100 * HOUR, 72 * HOUR)).toBe(false); // never read back: read it once
    expect(isSettled({ ...sent, delivery: { status: 'delivered' } }, at + HOUR, 72 * HOUR)).toBe(false);
    expect(isSettled({ ...sent, delivery: { status: 'delivered' } }, at + 73 * HOUR, 72 * HOUR)).toBe(true);
    expect(isSettled({ ...sent, delivery: { status: 'read' } }, at, 72 * HOUR)).toBe(true);
    expect(isSettled({ ...sent, delivery: { status: 'failed' } }, at, 72 * HOUR)).toBe(true);
  });
});

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
