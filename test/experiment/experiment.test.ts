import { afterEach, describe, expect, inject, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { jobReport, jobStatus, prepare, runJob, type RunOutcome } from '../../src/app/index.js';
import { createFileStore, createPgStore, type StateStore } from '../../src/checkpoint/backends.js';
import { armOf } from '../../src/plan/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { schemaUrl } from '../helpers/pg-cluster.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-26T12:00:00.000Z');
const pgUrl = inject('pgUrl');
const backends = [{ name: 'file', pg: false }, ...(pgUrl ? [{ name: 'PostgreSQL', pg: true }] : [])];

const ARMS = {
  a: { template: { name: 'welcome', language: 'pt_BR', variables: { '1': '{{name}}' } } },
  b: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
};
const TEMPLATE_OF: Record<string, string> = { a: 'welcome', b: 'promo_bf' };

describe.each(backends)('an experiment, on the $name store', ({ pg }) => {
  let sim: RunningSimulator;
  let c: Campaign;
  let store: StateStore;
  const clients: ApiClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((a) => a.close()));
    await store?.close();
    await sim?.close();
    await c?.cleanup();
  });

  async function setup(reads: { welcome: number; promo_bf: number }, experiment: Record<string, unknown> = {}) {
    sim = await startSimulator({ seed: 9, delivery: { delivered: 1, failed: 0, read: 0.5, templates: { welcome: { read: reads.welcome }, promo_bf: { read: reads.promo_bf } } } });
    c = await campaign({
      rows: 160,
      name: 'ab-2026',
      job: { message: undefined, experiment: { arms: ARMS, test_share: 0.5, metric: 'read', decide_after_hours: 24, confidence: 0.95, ...experiment } },
    });
    store = pg ? createPgStore(schemaUrl(pgUrl), { filesDir: c.stateDir }) : createFileStore(c.stateDir);
  }

  function api(): ApiClient {
    const a = createApiClient({ baseUrl: sim.url, token: sim.token });
    clients.push(a);
    return a;
  }

  async function run(at: number, options: { command?: 'run' | 'resume'; signal?: AbortSignal; onProgress?: () => void } = {}): Promise<RunOutcome> {
    const command = options.command ?? 'run';
    return runJob(await prepare(c.jobFile, { api: api() }, { store, now: at }), {
      store,
      api: api(),
      command,
      mode: { retryFailed: command === 'resume', retryInDoubt: false },
      owner: { pid: process.pid },
      clock: () => at,
      ...(options.signal && { signal: options.signal }),
      ...(options.onProgress && { onProgress: options.onProgress }),
    });
  }

  /** The simulator's truth: the templates each phone received. */
  function templatesTo(phone: string): string[] {
    const client = sim.state.clientByPhone(phone);
    return [...sim.state.conversations.values()]
      .filter((x) => x.clientId === client?.id)
      .flatMap((conv) => sim.state.messagesOf(conv.id).filter((m) => m.senderType === 'user'))
      .map((m) => m.template?.name ?? '(text)');
  }

  const testArm = (phone: string) => {
    const draw = armOf(phone, 'ab-2026', { arms: ARMS as never, test_share: 0.5 });
    return draw.test ? draw.arm : undefined;
  };

  it('with a clear winner (read 80 % against 20 %) picks it after decide_after_hours and sends it to the rest', async () => {
    await setup({ welcome: 0.2, promo_bf: 0.8 });
    const first = await run(T0);
    const test = c.phones.filter((p) => testArm(p) !== undefined);
    const rest = c.phones.filter((p) => testArm(p) === undefined);
    expect(test.length).toBeGreaterThan(50);
    expect(rest.length).toBeGreaterThan(50);
    expect(first.thisRun.sent).toBe(test.length);
    expect(first.deferred).toEqual([expect.objectContaining({ reason: 'experiment', count: rest.length, notBefore: new Date(T0 + 24 * HOUR).toISOString() })]);
    for (const phone of test) expect(templatesTo(phone)).toEqual([TEMPLATE_OF[testArm(phone) ?? '']]);
    for (const phone of rest) expect(templatesTo(phone)).toEqual([]);

    // Before the decision time a run sends nobody and decides nothing.
    expect((await run(T0 + 23 * HOUR)).thisRun.sent).toBe(0);
    expect(await store.jobNote('ab-2026', 'experiment')).toBeUndefined();

    sim.state.advanceClock(2 * HOUR); // the platform's deliveries and reads are due
    const second = await run(T0 + 25 * HOUR);
    const decision = (await store.jobNote('ab-2026', 'experiment')) as { winner: string; by: string; p_value: number; arms: Array<{ arm: string; rate: number; low: number; high: number }> };
    expect(decision).toMatchObject({ winner: 'b', by: 'significant' });
    expect(decision.p_value).toBeLessThan(0.05);
    const b = decision.arms.find((x) => x.arm === 'b');
    expect(b?.rate).toBeGreaterThan(0.6);
    expect(b?.low).toBeLessThan(b?.rate ?? 0);
    expect(second.thisRun.sent).toBe(rest.length);
    for (const phone of rest) expect(templatesTo(phone)).toEqual(['promo_bf']);
    for (const phone of test) expect(templatesTo(phone)).toHaveLength(1);

    // report.csv says each contact's arm; report.html the arms and the decision.
    const csv = parse(await readFile(store.jobFiles('ab-2026').report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    for (const row of csv) expect(row.arm, row.phone).toBe(testArm(row.phone ?? '') ?? 'b');
    const page = (await jobReport(c.jobFile, { store, format: 'html', clock: () => T0 + 25 * HOUR })).file;
    expect(await readFile(page, 'utf8')).toContain('arm <code data-metric="winner">b</code>');
    const status = await jobStatus(c.jobFile, { store, clock: () => T0 + 25 * HOUR });
    expect(status.experiment?.decision?.winner).toBe('b');
    expect(status.experiment?.arms.map((a) => a.arm)).toEqual(['a', 'b']);
    expect(status.experiment?.rest).toEqual({ sent: rest.length, waiting: 0 });
  });

  it('with no real difference falls back to the fallback arm', async () => {
    await setup({ welcome: 0.5, promo_bf: 0.5 }, { fallback: 'a' });
    await run(T0);
    sim.state.advanceClock(2 * HOUR);
    await run(T0 + 25 * HOUR);
    expect(await store.jobNote('ab-2026', 'experiment')).toMatchObject({ winner: 'a', by: 'fallback' });
    for (const phone of c.phones.filter((p) => testArm(p) === undefined)) expect(templatesTo(phone)).toEqual(['welcome']);
  });

  it('keeps every contact\'s arm across a killed and resumed run', async () => {
    await setup({ welcome: 0.2, promo_bf: 0.8 });
    const stop = new AbortController();
    let seen = 0;
    const killed = await run(T0, { signal: stop.signal, onProgress: () => (seen += 1) === 20 && stop.abort() });
    expect(killed.stopped?.reason).toBe('interrupted');
    const resumed = await run(T0 + HOUR, { command: 'resume' });
    expect(killed.thisRun.sent + resumed.thisRun.sent).toBe(c.phones.filter((p) => testArm(p) !== undefined).length);
    for (const phone of c.phones) {
      const arm = testArm(phone);
      expect(templatesTo(phone)).toEqual(arm === undefined ? [] : [TEMPLATE_OF[arm]]);
    }
  });
});
