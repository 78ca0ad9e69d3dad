import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { runWebhook, webhookSettings } from '../../src/cli/webhook-session.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { decideHealth, healthLine, healthStatus, storeHealth } from '../../src/webhook/index.js';
import { schemaUrl, startPgbouncer } from '../helpers/pg-cluster.js';
import { checkMetrics, promtoolBin, samples } from '../helpers/prometheus-tools.js';
import { waitFor } from '../helpers/wait.js';
import { send } from './helpers/http.js';

const SECRET = 'whsec_health';
const PHONE = '+5511987650003';
const pgUrl = inject('pgUrl');

describe("the receiver's health, decided", () => {
  it('is ok while the store answers, and says the store is reachable', () => {
    const h = decideHealth({ up: true });
    expect(healthStatus(h)).toBe(200);
    expect(healthLine(h)).toBe('ok: recording events; the store is reachable\n');
  });

  it('is unhealthy (503) with one line of why when the store is down and nothing can hold the events', () => {
    const h = decideHealth({ up: false, why: 'the store (database outreach on db:5432) cannot be used: the connection was refused' });
    expect(healthStatus(h)).toBe(503);
    expect(healthLine(h)).toBe('unhealthy: cannot take events; the store is unreachable: the store (database outreach on db:5432) cannot be used: the connection was refused\n');
    expect(h.storeUp).toBe(false);
  });

  it('stays healthy (200) while a spool takes the events through an outage, so a probe does not restart it', () => {
    const h = decideHealth({ up: false, why: 'down' }, { ready: true });
    expect(healthStatus(h)).toBe(200);
    expect(h).toMatchObject({ state: 'spooling', storeUp: false });
    expect(healthStatus(decideHealth({ up: false, why: 'down' }, { ready: false, why: 'the disk is full' }))).toBe(503);
  });
});

describe('the health source over a store', () => {
  it('counts a ping that does not answer in time as down', async () => {
    const health = storeHealth({ ping: () => new Promise<void>(() => undefined) }, { timeoutMs: 20 });
    expect(await health.check()).toMatchObject({ state: 'down', reason: 'cannot take events; the store is unreachable: it did not answer within 0.02 s' });
  });

  it('pings once for the checks of one moment, and again once the last check is older than cacheMs', async () => {
    let pings = 0;
    let now = 0;
    const health = storeHealth({ ping: async () => void (pings += 1) }, { cacheMs: 1_000, clock: () => now });
    await Promise.all([health.check(), health.check(), health.check()]);
    expect(pings).toBe(1);
    now = 999;
    await health.check();
    expect(pings).toBe(1);
    now = 1_000;
    await health.check();
    expect(pings).toBe(2);
  });

  it('asks the spool when the store is down', async () => {
    const health = storeHealth({ ping: () => Promise.reject(new Error('gone')) }, { spool: () => ({ ready: true }) });
    expect(await health.check()).toMatchObject({ state: 'spooling', reason: 'spooling events until the store is back; the store is unreachable: gone' });
  });
});

describe('outreach webhook serves /healthz and /metrics', () => {
  let dir: string;
  let sim: RunningSimulator;
  let stop: AbortController;
  let running: Promise<unknown> | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'outreach-health-'));
    sim = await startSimulator({ port: 0 });
    stop = new AbortController();
  });
  afterEach(async () => {
    stop.abort();
    await running;
    running = undefined;
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function start(flags: { stateDir?: string; store?: string; spool?: string }): Promise<string> {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    const settings = await webhookSettings({ port: '0', host: '127.0.0.1', ...flags }, { OUTREACH_WEBHOOK_SECRET: SECRET, OUTREACH_TOKEN: sim.token, OUTREACH_BASE_URL: sim.url });
    running = runWebhook(settings, { out, logger: pino({ level: 'silent' }), stop: stop.signal });
    await waitFor(() => text.includes('press Ctrl+C'));
    const url = /listening on (\S+)/.exec(text)?.[1] ?? '';
    expect(text).toContain(`health: ${url}/healthz, metrics: ${url}/metrics\n`);
    return url;
  }

  const get = (url: string) => send(url, { method: 'GET' });

  it('answers 200 and counts deliveries by result and opt-outs; still 200 while its state folder cannot be used, the store down and events spooled; recording again after', async () => {
    const stateDir = path.join(dir, 'state');
    const url = await start({ stateDir, spool: path.join(dir, 'spool') });
    const healthy = await get(`${url}/healthz`);
    expect(healthy.status).toBe(200);
    expect(healthy.headers['content-type']).toMatch(/^text\/plain/);
    expect(healthy.body).toBe('ok: recording events; the store is reachable\n');

    sim.state.setWebhook({ url: `${url}/`, secret: SECRET });
    sim.state.inbound(PHONE, 'oi');
    sim.state.inbound(PHONE, 'STOP');
    await sim.state.webhookIdle();
    expect((await send(`${url}/`, { body: Buffer.from('{}'), headers: { 'x-service-signature': 'sha256=00' } })).status).toBe(401);
    expect((await get(`${url}/`)).status).toBe(405); // a GET elsewhere is still no delivery

    let text = '';
    await waitFor(async () => {
      text = (await get(`${url}/metrics`)).body;
      return samples(text, 'outreach_optouts_total')[0]?.value === 1;
    });
    const results = Object.fromEntries(samples(text, 'outreach_webhook_events_total').map((s) => [s.labels.result, s.value]));
    expect(results).toEqual({ accepted: 2, duplicate: 0, bad_signature: 1, invalid: 0, failed: 0, spooled: 0 });
    expect(samples(text, 'outreach_store_up')).toEqual([{ labels: {}, value: 1 }]);
    expect(samples(text, 'outreach_webhook_healthy')).toEqual([{ labels: {}, value: 1 }]);
    expect(samples(text, 'outreach_optouts_total')).toEqual([{ labels: { source: 'reply_keyword' }, value: 1 }]);
    if (promtoolBin) expect(await checkMetrics(text)).toEqual({ code: 0, output: '' });

    // The folder goes away and a file stands in its place: the receiver cannot record.
    await rename(stateDir, `${stateDir}.away`);
    await writeFile(stateDir, 'not a folder');
    let spooling = await get(`${url}/healthz`);
    await waitFor(async () => (spooling = await get(`${url}/healthz`)).body.startsWith('ok: spooling'));
    expect(spooling.status).toBe(200); // a probe must not restart a receiver that holds events through an outage
    expect(spooling.body).toBe(`ok: spooling events until the store is back; the store is unreachable: the state folder ${stateDir} cannot be used: it is a file, not a folder; fix the folder (or its disk), or pass another --state-dir\n`);
    const down = (await get(`${url}/metrics`)).body;
    expect(samples(down, 'outreach_store_up')).toEqual([{ labels: {}, value: 0 }]);
    expect(samples(down, 'outreach_webhook_healthy')).toEqual([{ labels: {}, value: 1 }]);

    await rm(stateDir);
    await rename(`${stateDir}.away`, stateDir);
    await waitFor(async () => (await get(`${url}/healthz`)).body.startsWith('ok: recording'));
    expect(samples((await get(`${url}/metrics`)).body, 'outreach_store_up')).toEqual([{ labels: {}, value: 1 }]);
  });

  it.skipIf(!pgUrl)('stays healthy while the database cannot be reached, spooling the deliveries, and names the database (never its password)', async () => {
    const cluster = { port: Number(new URL(pgUrl).port) };
    const bouncer = await startPgbouncer(cluster);
    let stopped = false;
    try {
      const through = new URL(schemaUrl(bouncer.url));
      through.password = 's3cret';
      await mkdir(path.join(dir, 'files'));
      const url = await start({ store: through.toString(), stateDir: path.join(dir, 'files'), spool: path.join(dir, 'spool') });
      expect((await get(`${url}/healthz`)).status).toBe(200);
      await bouncer.stop();
      stopped = true;
      sim.state.setWebhook({ url: `${url}/`, secret: SECRET });
      sim.state.inbound(PHONE, 'STOP');
      await sim.state.webhookIdle();
      let spooling = await get(`${url}/healthz`);
      await waitFor(async () => (spooling = await get(`${url}/healthz`)).body.startsWith('ok: spooling'));
      expect(spooling.status).toBe(200);
      expect(spooling.body).toMatch(new RegExp(`^ok: spooling events until the store is back; the store is unreachable: the store \\(database postgres on 127\\.0\\.0\\.1:${through.port}\\) cannot be used: `));
      expect(spooling.body).not.toContain('s3cret');
      const metrics = (await get(`${url}/metrics`)).body;
      expect(samples(metrics, 'outreach_store_up')).toEqual([{ labels: {}, value: 0 }]);
      expect(samples(metrics, 'outreach_webhook_healthy')).toEqual([{ labels: {}, value: 1 }]);
      expect(Object.fromEntries(samples(metrics, 'outreach_webhook_events_total').map((s) => [s.labels.result, s.value]))).toMatchObject({ spooled: 1, failed: 0 });
      expect(metrics).not.toContain('s3cret');
    } finally {
      if (!stopped) await bouncer.stop();
    }
  });
});
