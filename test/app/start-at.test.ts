import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planJob, runUntilDone } from '../../src/app/index.js';
import { parseJob } from '../../src/job/index.js';
import { bench, phone, type Bench } from '../compliance/helpers.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';

let b: Bench;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await b.close();
});

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);
const START_AT = '2026-11-27T09:30:00-03:00'; // 12:30 UTC
const STARTS = Date.parse(START_AT);

describe('start_at: a run started earlier sends nobody before then', () => {
  it('defers every contact until start_at, and a run from then on sends them', async () => {
    const rows = Array.from({ length: 4 }, (_, i) => ({ phone: phone(i, 6) }));
    const prepared = await b.prepare(await b.job('later', rows, { start_at: START_AT }));
    const early = await b.run(prepared, { clock: () => T0 });
    expect(early.thisRun).toMatchObject({ sent: 0, deferred: 4 });
    expect(early.deferred).toEqual([{ reason: 'start_at', count: 4, notBefore: new Date(STARTS).toISOString() }]);
    expect(early.notDone).toBe(0);
    expect(b.started().size).toBe(0);

    const plan = await planJob(prepared, { store: b.store, clock: () => T0 });
    expect(plan.byAction).toEqual({ 'defer:start_at': 4 });

    const onTime = await b.run(prepared, { clock: () => STARTS });
    expect(onTime.thisRun).toMatchObject({ sent: 4, deferred: 0 });
    expect(b.started().size).toBe(4);
  });

  it('decides again a contact deferred by an earlier start_at: without one (or an earlier one) the next run sends it', async () => {
    const rows = Array.from({ length: 2 }, (_, i) => ({ phone: phone(i, 9) }));
    const prepared = await b.prepare(await b.job('moved', rows));
    const early = await b.run({ ...prepared, job: { ...prepared.job, start_at: START_AT } }, { clock: () => T0 });
    expect(early.thisRun).toMatchObject({ sent: 0, deferred: 2 });
    const now = await b.run(prepared, { clock: () => T0 + 60_000 });
    expect(now.thisRun).toMatchObject({ sent: 2, deferred: 0 });
  });

  it('with --wait, waits until start_at on the injected clock and then sends everyone', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => ({ phone: phone(i, 8) }));
    const prepared = await b.prepare(await b.job('waits', rows, { start_at: START_AT }));
    let now = T0;
    const slept: number[] = [];
    const result = await runUntilDone(prepared, {
      store: b.store,
      api: b.api,
      command: 'run',
      mode: { retryFailed: false, retryInDoubt: false },
      owner: { pid: process.pid },
      clock: () => now,
      sleep: async (ms) => {
        slept.push(ms);
        now += ms;
      },
    });
    expect(result.runs).toBe(2);
    expect(slept.reduce((a, x) => a + x, 0)).toBe(STARTS - T0);
    expect(result.outcome.summary.byStatus.sent).toBe(3);
    expect(b.started().size).toBe(3);
  });

  it('refuses a start_at without a zone or that is not a time, naming the field', () => {
    const base = { name: 'x', contacts: 'c.csv', company_id: 1, channel_id: 10, message: { text: 'hi' } };
    for (const value of ['2026-11-27T09:30:00', 'tomorrow']) {
      const r = parseJob({ ...base, start_at: value });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problems.join('\n')).toMatch(/start_at: .* is not a time with its zone; write it as ISO 8601 with an offset or Z, e.g\. "2026-11-27T09:00:00-03:00"/);
    }
    expect(parseJob({ ...base, start_at: '2026-11-27T12:30:00Z' }).ok).toBe(true);
  });
});

describe('outreach run --at', () => {
  let sim: RunningSimulator;
  let c: Campaign;
  afterEach(async () => {
    await sim?.close();
    await c?.cleanup();
  });

  it('defers everyone until the time given, saying until when, and sends nobody', async () => {
    sim = await startSimulator({ seed: 4 });
    c = await campaign({ rows: 3 });
    const env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
    const r = await cli(['run', c.jobFile, '--no-progress', '--at', '2099-01-01T09:00:00Z', '--tz', 'UTC'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/3 deferred: start_at until 2099-01-01 09:00 UTC/);
    for (const p of c.phones) expect(sim.state.startWhatsappCount(p)).toBe(0);
    const bad = await cli(['run', c.jobFile, '--at', 'tomorrow 9am'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--at: "tomorrow 9am" is not a time with its zone/);
  });
});
