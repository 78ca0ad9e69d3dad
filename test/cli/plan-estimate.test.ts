import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planJob } from '../../src/app/index.js';
import { formatPlan, planJson } from '../../src/cli/format/plan.js';
import { ServerError } from '../../src/api/errors.js';
import { bench, phone, type Bench } from '../compliance/helpers.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli as runCli } from '../helpers/in-process.js';

let c: Campaign | undefined;
let b: Bench | undefined;
beforeEach(() => {
  c = undefined;
  b = undefined;
});
afterEach(async () => {
  await c?.cleanup();
  await b?.close();
});

/** Friday 2026-11-27 12:00 UTC: 09:00 in São Paulo. */
const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);

describe('plan tells how long the send takes at the job rate', () => {
  it('counts the first message and the after-send steps as requests, at per_second, with when it ends', async () => {
    c = await campaign({ rows: 10, job: { rate: { per_second: 2 }, after_send: { tags: ['bf'], custom_fields: { campaign: 'bf' } } } });
    const r = await runCli(['plan', c.jobFile, '--offline', '--channel-type', 'wba', '--state-dir', c.stateDir, '--tz', 'UTC']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n {2}time at the rate {3}15\.0s: 30 requests \(10 contacts × 3: the first message and 2 after-send steps\) at 2\/s; ends about \d\d:\d\d(:\d\d)? UTC if started now\n/);
    const json = await runCli(['plan', c.jobFile, '--offline', '--channel-type', 'wba', '--state-dir', c.stateDir, '--json']);
    expect(JSON.parse(json.stdout).estimate).toMatchObject({ contacts: 10, requests: 30, per_second: 2, duration_s: 15, warnings: [] });
    expect(JSON.parse(json.stdout).estimate.ends_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('counts the after-send steps contacts sent earlier still owe, which run takes too', async () => {
    b = await bench();
    const rows = Array.from({ length: 4 }, (_, i) => ({ phone: phone(i, 8) }));
    const jobFile = await b.job('owed', rows, { rate: { per_second: 4 }, after_send: { tags: ['bf'] } });
    const prepared = await b.prepare(jobFile);
    // The first run's tag requests all fail: each contact owes its tag step.
    const failing = Object.create(b.api) as typeof b.api;
    failing.addClientTag = () => Promise.reject(new ServerError('500: tags are down', { status: 500, platformMessage: 'tags are down', body: {}, method: 'POST', path: '/client/1/tags' }));
    await b.run(prepared, { api: failing, clock: () => T0 });
    const plan = await planJob(prepared, { store: b.store, clock: () => T0 + 60_000 });
    expect(plan.estimate).toMatchObject({ contacts: 0, requests: 4, owedSteps: 4, durationMs: 1_000 });
    expect(formatPlan(plan, 'UTC')).toContain('  time at the rate   1.0s: 4 requests (4 after-send steps owed by contacts sent earlier) at 4/s;');
    const before = b.sim.state.requests.filter((q) => q.method === 'POST').length;
    await b.run(prepared, { clock: () => T0 + 120_000 });
    expect(b.sim.state.requests.filter((q) => q.method === 'POST').length - before).toBe(4);
  });

  it('warns when the sending window closes before the send ends, and when contacts wait for the messaging limit', async () => {
    b = await bench();
    const rows = Array.from({ length: 12 }, (_, i) => ({ phone: phone(i, 7) }));
    const jobFile = await b.job('long', rows, {
      rate: { per_second: 0.0001 },
      send_window: { from: '09:00', to: '20:00', timezone: 'America/Sao_Paulo' },
      limits: { daily_unique_recipients: 8 },
    });
    const plan = await planJob(await b.prepare(jobFile), { store: b.store, clock: () => T0 });
    expect(plan.estimate).toMatchObject({ contacts: 8, requests: 8, perSecond: 0.0001, durationMs: 80_000_000, startsAt: T0, endsAt: T0 + 80_000_000 });
    const text = formatPlan(plan, 'UTC');
    expect(text).toContain('  time at the rate   22h 13m 20s: 8 requests (8 contacts × 1: the first message) at 0.0001/s; ends about Sat 10:13 UTC if started now\n');
    expect(text).toContain(
      '  warning: the send window closes at 20:00 America/Sao_Paulo before the send ends: the contacts left then wait for its next opening (`run --wait` sends them then)\n',
    );
    expect(text).toContain('  warning: the messaging limit (limits.daily_unique_recipients 8) has room for 8 more recipients now: 4 contacts wait for room\n');
    expect(planJson(plan).estimate.warnings).toEqual([
      { kind: 'quiet_hours', zone: 'America/Sao_Paulo', closes_at: '2026-11-27T23:00:00.000Z' },
      { kind: 'messaging_limit', limit: 8, room: 8, waiting: 4 },
    ]);
  });
});
