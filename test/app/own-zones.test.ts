import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planJob } from '../../src/app/index.js';
import { formatPlan } from '../../src/cli/format/plan.js';
import { bench, type Bench } from '../compliance/helpers.js';
import { cli } from '../helpers/in-process.js';

let b: Bench;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await b.close();
});

const SAO_PAULO = '+5511987650001';
const MANAUS = '+5592987650002'; // area code 92: America/Manaus, an hour behind São Paulo
const HOUR = 3_600_000;
/** Sat 28 Nov 2026, 12:30 UTC: 09:30 in São Paulo, 08:30 in Manaus. */
const T = Date.UTC(2026, 10, 28, 12, 30, 0);

describe("each contact's own zone, from its number where the numbering plan tells it", () => {
  it('quiet hours: São Paulo is sent at 09:30 there, Manaus waits for its own 09:00', async () => {
    const jobFile = await b.job('windows', [{ phone: SAO_PAULO }, { phone: MANAUS }], {
      send_window: { from: '09:00', to: '20:00', default_timezone: 'America/Sao_Paulo' },
    });
    const prepared = await b.prepare(jobFile);
    const plan = await planJob(prepared, { store: b.store, clock: () => T });
    expect(plan.byZone).toEqual({ 'America/Sao_Paulo': 1, 'America/Manaus': 1 });
    expect(formatPlan(plan, 'UTC')).toContain('  by zone          America/Manaus 1, America/Sao_Paulo 1\n');
    const outcome = await b.run(prepared, { clock: () => T });
    expect(b.started()).toEqual(new Set([SAO_PAULO]));
    expect(outcome.deferred).toEqual([{ reason: 'quiet_hours', count: 1, notBefore: new Date(Date.UTC(2026, 10, 28, 13, 0, 0)).toISOString(), zone: 'America/Manaus' }]);
  });

  it('start_at without an offset is 09:00 in each contact\'s zone: Manaus starts an hour after São Paulo, and plan says when the first and the last zone start', async () => {
    const jobFile = await b.job('local-start', [{ phone: SAO_PAULO }, { phone: MANAUS }], { default_timezone: 'America/Sao_Paulo', start_at: '28/11/2026 09:00' });
    const prepared = await b.prepare(jobFile);
    const plan = await planJob(prepared, { store: b.store, clock: () => T - 2 * HOUR });
    expect(plan.startAt).toEqual({
      kind: 'local',
      text: '2026-11-28T09:00:00',
      first: { zone: 'America/Sao_Paulo', at: Date.UTC(2026, 10, 28, 12, 0, 0) },
      last: { zone: 'America/Manaus', at: Date.UTC(2026, 10, 28, 13, 0, 0) },
    });
    expect(formatPlan(plan, 'UTC')).toContain(
      "  start_at         2026-11-28 09:00 in each contact's own zone (it names no offset): the first zone, America/Sao_Paulo, starts at 12:00 UTC; the last, America/Manaus, at 13:00 UTC\n",
    );
    const outcome = await b.run(prepared, { clock: () => T });
    expect(b.started()).toEqual(new Set([SAO_PAULO]));
    expect(outcome.deferred).toEqual([{ reason: 'start_at', count: 1, notBefore: new Date(Date.UTC(2026, 10, 28, 13, 0, 0)).toISOString(), zone: 'America/Manaus' }]);
    await b.run(prepared, { clock: () => T + HOUR });
    expect(b.started()).toEqual(new Set([SAO_PAULO, MANAUS]));
  });

  it('start_at with an offset is one instant for everyone', async () => {
    const jobFile = await b.job('instant-start', [{ phone: SAO_PAULO }, { phone: MANAUS }], { default_timezone: 'America/Sao_Paulo', start_at: '2026-11-28T09:00:00-03:00' });
    const prepared = await b.prepare(jobFile);
    const plan = await planJob(prepared, { store: b.store, clock: () => T - 2 * HOUR });
    expect(plan.startAt).toEqual({ kind: 'instant', at: Date.UTC(2026, 10, 28, 12, 0, 0) });
    expect(formatPlan(plan, 'UTC')).toContain('  start_at         12:00 UTC: one instant for everyone (it names its offset)\n');
    await b.run(prepared, { clock: () => T });
    expect(b.started()).toEqual(new Set([SAO_PAULO, MANAUS]));
  });
});

describe('run --at in the forms people write', () => {
  it('reads 28/11/2099 09:00 day first, refuses 05/11/2099 without a locale that says which, and reads it day first with --locale pt-BR', async () => {
    const jobFile = await b.job('at-forms', [{ phone: SAO_PAULO }], { default_timezone: 'America/Sao_Paulo' });
    const env = { env: { OUTREACH_BASE_URL: b.sim.url, OUTREACH_TOKEN: b.sim.token, OUTREACH_STATE_DIR: b.stateDir } };
    const clear = await cli(['run', jobFile, '--no-progress', '--tz', 'UTC', '--at', '28/11/2099 09:00'], env);
    expect(clear.code).toBe(0);
    expect(clear.stdout).toMatch(/1 deferred: start_at until 2099-11-28 09:00 America\/Sao_Paulo/);
    const ambiguous = await cli(['run', jobFile, '--no-progress', '--at', '05/11/2099 09:00'], env);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/--at: "05\/11\/2099 09:00" could be 5 November or 11 May; write it year first, "2099-11-05 09:00" or "2099-05-11 09:00", or give --locale \(pt-BR reads it day first\)/);
    const pt = await cli(['run', jobFile, '--no-progress', '--locale', 'pt-BR', '--at', '05/11/2099 09:00'], env);
    expect(pt.code).toBe(0);
    expect(pt.stdout).toMatch(/1 deferred: start_at until 05\/11\/2099, 09:00 America\/Sao_Paulo/);
    expect(b.started().size).toBe(0);
  });
});
