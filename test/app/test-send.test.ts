import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/index.js';
import { AppError, testSend } from '../../src/app/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { bench, byPhone, phone, type Bench } from '../compliance/helpers.js';
import { campaign, parseCsv, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

const START = '/chat/conversations/start-whatsapp';
const T0 = Date.UTC(2026, 10, 27, 15, 0, 0);
const TEAM = ['+5511988880001', '+5511988880002'];

let b: Bench;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await b.close();
});

/** The start-whatsapp bodies the simulator received, in order. */
function starts(sim: RunningSimulator): Array<{ phone: string; variables?: Record<string, string> }> {
  return sim.state.requests.filter((q) => q.method === 'POST' && q.path.endsWith(START)).map((q) => q.body as { phone: string; variables?: Record<string, string> });
}

describe('a test send (run --test-to)', () => {
  it("sends the campaign's message with the first rows' values to the listed phones only, recorded apart, and the real run then sends everyone", async () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ phone: phone(i, 2) }));
    const jobFile = await b.job('promo', rows, { after_send: { tags: ['bf'] } });
    const prepared = await b.prepare(jobFile);

    const result = await testSend(prepared, { api: b.api, store: b.store, phones: TEAM, clock: () => T0 });

    expect(starts(b.sim)).toEqual([
      expect.objectContaining({ phone: TEAM[0], template_name: 'promo_bf', variables: { '1': 'Ana 0', '2': 'BF0' } }),
      expect.objectContaining({ phone: TEAM[1], template_name: 'promo_bf', variables: { '1': 'Ana 1', '2': 'BF1' } }),
    ]);
    // The first message only: no after-send step tags the team's phones.
    expect(b.sim.state.requests.filter((q) => q.path.includes('/tags')).length).toBe(0);
    expect(result.sends.map((s) => [s.phone, s.outcome.kind, s.row.line])).toEqual([
      [TEAM[0], 'sent', 2],
      [TEAM[1], 'sent', 3],
    ]);
    const lines = (await readFile(result.file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({ at: new Date(T0).toISOString(), job: 'promo', phone: TEAM[0], outcome: 'sent', row: { file: expect.stringMatching(/promo\.csv$/), line: 2 } }),
      expect.objectContaining({ phone: TEAM[1], outcome: 'sent' }),
    ]);
    // Not the campaign's: no state for the job, nothing in the ledger of first messages.
    expect(await b.store.readJob('promo')).toBeUndefined();
    expect((await b.store.ledger()).uniqueOutsideWindowSince(0)).toBe(0);

    const outcome = await b.run(prepared, { clock: () => T0 + 60_000 });
    expect(outcome.thisRun.sent).toBe(5);
    const report = byPhone(await b.report('promo'));
    expect([...report.keys()].sort()).toEqual(rows.map((r) => r.phone).sort());
  });

  it('does not make a listed phone that is also in the list "already messaged" for the run', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => ({ phone: phone(i, 3) }));
    const jobFile = await b.job('own', rows);
    const prepared = await b.prepare(jobFile);
    await testSend(prepared, { api: b.api, store: b.store, phones: [rows[0]!.phone], clock: () => T0 });
    const outcome = await b.run(prepared, { clock: () => T0 + 60_000 });
    expect(outcome.thisRun).toMatchObject({ sent: 3, deferred: 0, skipped: 0 });
    expect(b.sim.state.startWhatsappCount(rows[0]!.phone)).toBe(2);
  });

  it('refuses a listed phone that is not a phone number, sending nothing', async () => {
    const jobFile = await b.job('bad', [{ phone: phone(0, 4) }]);
    const prepared = await b.prepare(jobFile);
    const err = await testSend(prepared, { api: b.api, store: b.store, phones: ['+5511988880001', '12'], clock: () => T0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).kind).toBe('invalid');
    expect((err as Error).message).toMatch(/"12" is not a phone number/);
    expect(starts(b.sim)).toEqual([]);
  });

  it('tells a listed phone the platform did not take apart, in the result and the file', async () => {
    const jobFile = await b.job('refused', [{ phone: phone(0, 5) }]);
    const prepared = await b.prepare(jobFile);
    const failing = await startSimulator({ seed: 9, faults: { failRate: 1 } });
    const api = createApiClient({ baseUrl: failing.url, token: failing.token });
    try {
      const result = await testSend(prepared, { api, store: b.store, phones: [TEAM[0]!], clock: () => T0 });
      expect(result.sends).toEqual([expect.objectContaining({ phone: TEAM[0], outcome: expect.objectContaining({ kind: 'failed' }) })]);
      const [line] = (await readFile(result.file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(line).toMatchObject({ phone: TEAM[0], outcome: 'failed', error: expect.any(String) });
    } finally {
      await api.close();
      await failing.close();
    }
  });

  it("heals a 502 on the conversation it opened, as the campaign's first message does", async () => {
    const jobFile = await b.job('healed', [{ phone: phone(0, 6) }], { retry: { attempts: 2, backoff_ms: 1 } });
    const prepared = await b.prepare(jobFile);
    const flaky = await startSimulator({ seed: 9, faults: { failRate: 1 } });
    const api = createApiClient({ baseUrl: flaky.url, token: flaky.token });
    try {
      // The platform answers 502 to the first try; by the retry it is well again.
      const sleep = async () => flaky.state.setFaults({ failRate: 0 });
      const result = await testSend(prepared, { api, store: b.store, phones: [TEAM[0]!], clock: () => T0, sleep });
      expect(result.sends).toEqual([expect.objectContaining({ phone: TEAM[0], outcome: expect.objectContaining({ kind: 'sent' }) })]);
      const posts = flaky.state.requests.filter((q) => q.method === 'POST').map((q) => q.path.replace(/\d+/g, 'N'));
      expect(posts).toEqual([START, '/chat/conversations/N/wba-send-template']);
      expect(flaky.state.startWhatsappCount(TEAM[0]!)).toBe(1);
    } finally {
      await api.close();
      await flaky.close();
    }
  });
});

describe('outreach run --test-to', () => {
  let sim: RunningSimulator;
  let c: Campaign;
  afterEach(async () => {
    await sim?.close();
    await c?.cleanup();
  });

  it('sends to the listed phones (or the job field test_to), prints a line per phone, exits 0, and leaves the campaign unsent', async () => {
    sim = await startSimulator({ seed: 5 });
    c = await campaign({ rows: 4, job: { test_to: ['+5511988880003'] } });
    const env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
    const r = await cli(['run', c.jobFile, '--test-to', `${TEAM[0]},${TEAM[1]}`], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`test send of cli-test: ${TEAM[0]} sent (line 2 of the list's values)`);
    expect(r.stdout).toContain(`test send of cli-test: ${TEAM[1]} sent (line 3 of the list's values)`);
    expect(r.stdout).toMatch(/the campaign was not sent; recorded in .*test-sends\.jsonl/);
    const fromJob = await cli(['run', c.jobFile, '--test-to'], env);
    expect(fromJob.code).toBe(0);
    expect(starts(sim).map((s) => s.phone)).toEqual([TEAM[0], TEAM[1], '+5511988880003']);
    for (const p of c.phones) expect(sim.state.startWhatsappCount(p)).toBe(0);

    const real = await cli(['run', c.jobFile, '--no-progress'], env);
    expect(real.code).toBe(0);
    for (const p of c.phones) expect(sim.state.startWhatsappCount(p)).toBe(1);
    expect(parseCsv(await readFile(`${c.stateDir}/cli-test/report.csv`, 'utf8'))).toHaveLength(4);
  });

  it('says there is nobody to test-send to when neither --test-to nor test_to lists a phone (exit 2)', async () => {
    sim = await startSimulator({ seed: 5 });
    c = await campaign({ rows: 2 });
    const r = await cli(['run', c.jobFile, '--test-to'], { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--test-to lists no phone and the job has no test_to/);
    expect(starts(sim)).toEqual([]);
  });
});
