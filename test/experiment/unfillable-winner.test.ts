import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { jobStatus, planJob, prepare, runJob } from '../../src/app/index.js';
import { createFileStore, type StateStore } from '../../src/checkpoint/backends.js';
import { readRejects } from '../../src/report/index.js';
import { armOf } from '../../src/plan/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-26T12:00:00.000Z');
/** Arm a needs the coupon; arm b does not. */
const ARMS = {
  a: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
  b: { template: { name: 'welcome', language: 'pt_BR', variables: { '1': '{{name}}' } } },
};

let sim: RunningSimulator;
let c: Campaign;
let store: StateStore;
let api: ApiClient;
afterEach(async () => {
  await api?.close();
  await store?.close();
  await sim?.close();
  await c?.cleanup();
});

it('a contact the winning arm cannot be filled for is skipped once with the reason, never left deferred to a time gone by, and counted in one place', async () => {
  sim = await startSimulator({ seed: 9, delivery: { delivered: 1, failed: 0, read: 0.5, templates: { welcome: { read: 0.2 }, promo_bf: { read: 0.95 } } } });
  c = await campaign({
    rows: 60,
    emptyCoupon: 30,
    name: 'ab-coupon',
    job: { message: undefined, limits: { max_reject_ratio: 0.9 }, experiment: { arms: ARMS, test_share: 0.5, metric: 'read', decide_after_hours: 24, confidence: 0.5, fallback: 'a' } },
  });
  store = createFileStore(c.stateDir);
  api = createApiClient({ baseUrl: sim.url, token: sim.token });
  const at = async (t: number) => ({ prepared: await prepare(c.jobFile, { api }, { store, now: t }), clock: () => t });
  const run = async (t: number) => {
    const { prepared, clock } = await at(t);
    return runJob(prepared, { store, api, command: 'run', mode: { retryFailed: false, retryInDoubt: false }, owner: { pid: process.pid }, clock });
  };
  const noCoupon = Array.from({ length: 30 }, (_, i) => `+551195555${1000 + i}`);
  const rest = noCoupon.filter((p) => !armOf(p, 'ab-coupon', { arms: ARMS as never, test_share: 0.5 }).test);
  expect(rest.length).toBeGreaterThan(5);

  await run(T0); // the test goes; the rest waits for the decision
  sim.state.advanceClock(2 * HOUR);
  const decided = await run(T0 + 25 * HOUR);
  expect(await store.jobNote('ab-coupon', 'experiment')).toMatchObject({ winner: 'a' });
  const later = await run(T0 + 26 * HOUR);
  await run(T0 + 27 * HOUR);

  for (const outcome of [decided, later]) {
    expect(outcome.deferred).toEqual([]);
    expect(outcome.summary.byStatus.deferred).toBe(0);
    expect(outcome.summary.byAction['skip:missing_variable:coupon']).toBe(rest.length);
  }
  const states = (await store.readJob('ab-coupon'))?.states;
  for (const phone of rest) expect(states?.get(phone)).toMatchObject({ status: 'skipped', reason: 'missing_variable:coupon' });

  // Once: one skipped record per contact, however many runs came after.
  const journal = await readFile(path.join(c.stateDir, 'ab-coupon', 'checkpoint.jsonl'), 'utf8');
  for (const phone of rest) expect(journal.split('\n').filter((l) => l.includes('"skipped"') && l.includes(phone))).toHaveLength(1);

  // One place: a contact the job holds is not in rejects.csv too, and plan, run and status count the same contacts.
  const rejected = (await readRejects(store.jobFiles('ab-coupon').rejects)).map((r) => `+${(r.raw['Phone'] ?? '').replace(/\D/g, '')}`);
  expect(rejected.length).toBeGreaterThan(0);
  expect(rejected.filter((phone) => rest.includes(phone))).toEqual([]);
  const { prepared, clock } = await at(T0 + 28 * HOUR);
  const plan = await planJob(prepared, { store, clock });
  const status = await jobStatus(c.jobFile, { store, clock });
  expect(plan.contacts + plan.rejects.length).toBe(plan.rows);
  expect(status.summary.total).toBe(plan.contacts);
  expect(later.summary.total).toBe(plan.contacts);
  expect(later.rejected).toBe(plan.rejects.length);
  expect(plan.byAction['skip:missing_variable:coupon']).toBe(rest.length);
});
