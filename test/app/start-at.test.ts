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

  it('refuses a start_at that is not a time, or one without an offset where the job names no zone, with the forms that work', () => {
    const base = { name: 'x', contacts: 'c.csv', company_id: 1, channel_id: 10, message: { text: 'hi' } };
    const bad = parseJob({ ...base, start_at: 'tomorrow' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems).toEqual(['start_at: "tomorrow" is not a date and time this reads; write "2026-11-28 09:00" or "28/11/2026 09:00" (each contact\'s own local time), or with an offset for one instant everywhere, e.g. "2026-11-28T09:00:00-03:00"']);
    const noZone = parseJob({ ...base, start_at: '2026-11-27 09:30' });
    expect(noZone.ok).toBe(false);
    if (!noZone.ok) expect(noZone.problems.join('\n')).toMatch(/start_at: "2026-11-27T09:30:00" names no offset, so it is each contact's own local time, and the job names no zone .*; set "default_timezone"/);
    const ambiguous = parseJob({ ...base, default_timezone: 'America/Sao_Paulo', start_at: '05/11/2026 09:00' });
    expect(ambiguous.ok).toBe(false);
    if (!ambiguous.ok) expect(ambiguous.problems).toEqual(['start_at: "05/11/2026 09:00" could be 5 November or 11 May; write it year first, "2026-11-05 09:00" or "2026-05-11 09:00"']);
    expect(parseJob({ ...base, start_at: '2026-11-27T12:30:00Z' }).ok).toBe(true);
    const local = parseJob({ ...base, default_timezone: 'America/Sao_Paulo', start_at: '28/11/2026 09:00' });
    expect(local.ok && local.job.start_at).toBe('2026-11-28T09:00:00');
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
    expect(bad.stderr).toMatch(/--at: "tomorrow 9am" is not a date and time this reads; write "2026-11-28 09:00"/);
  });
});
