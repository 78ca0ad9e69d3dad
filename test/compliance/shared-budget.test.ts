/**
 * One messaging-limit budget for the whole store: runs of several jobs, in several processes (two
 * stores on one state folder stand for two), take their places from the store before they decide,
 * so together they never start more recipients outside their window than the limit.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobStatus } from '../../src/app/index.js';
import { formatRoom } from '../../src/cli/format/deferred.js';
import { createFileStore } from '../../src/checkpoint/backends.js';
import { bench, HOUR, phone, type Bench } from './helpers.js';

let b: Bench;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await b.close();
});

const T0 = Date.UTC(2026, 2, 2, 15, 0, 0);
const MINUTE = 60_000;
/** Neither run reads the other's ledger lines during the run: only the store's budget keeps them apart. */
const NO_REFRESH = 3_600_000;

async function outsideInLedger(stateDir: string): Promise<Set<string>> {
  const text = await readFile(path.join(stateDir, 'ledger.jsonl'), 'utf8').catch(() => '');
  const phones = new Set<string>();
  for (const line of text.split('\n').filter(Boolean)) {
    const v = JSON.parse(line) as { phone: string; outside_window?: boolean; op?: string };
    if (v.op === undefined && v.outside_window === true) phones.add(v.phone);
  }
  return phones;
}

describe('one messaging-limit budget for every process of the store', () => {
  it('two runs of two jobs in two processes, at once, start no more recipients between them than the limit', async () => {
    const limits = { limits: { daily_unique_recipients: 10 } };
    const first = await b.job('north', Array.from({ length: 12 }, (_, i) => ({ phone: phone(i, 40) })), limits);
    const second = await b.job('south', Array.from({ length: 12 }, (_, i) => ({ phone: phone(i, 41) })), limits);
    const [pa, pb] = await Promise.all([b.prepare(first), b.prepare(second)]);
    const [a, c] = await Promise.all([
      b.run(pa, { store: createFileStore(b.stateDir), clock: () => T0, refreshEveryMs: NO_REFRESH }),
      b.run(pb, { store: createFileStore(b.stateDir), clock: () => T0, refreshEveryMs: NO_REFRESH }),
    ]);

    expect(b.started().size).toBe(10);
    expect((await outsideInLedger(b.stateDir)).size).toBe(10);
    expect(a.thisRun.sent + c.thisRun.sent).toBe(10);
    expect(a.thisRun.sent + a.thisRun.deferred).toBe(12);
    expect(c.thisRun.sent + c.thisRun.deferred).toBe(12);
    for (const o of [a, c]) for (const g of o.deferred) expect(g.reason).toBe('daily_limit');
  });

  it('gives the places a run did not use back at its end: the next run of another process gets them', async () => {
    const limits = { limits: { daily_unique_recipients: 10 } };
    const small = await b.job('small', Array.from({ length: 3 }, (_, i) => ({ phone: phone(i, 42) })), limits);
    const big = await b.job('big', Array.from({ length: 12 }, (_, i) => ({ phone: phone(i, 43) })), limits);
    const done = await b.run(await b.prepare(small), { store: createFileStore(b.stateDir), clock: () => T0 });
    expect(done.thisRun.sent).toBe(3);
    const holds = JSON.parse(await readFile(path.join(b.stateDir, 'budget-holds.json'), 'utf8')) as { holds: Record<string, unknown> };
    expect(holds.holds).toEqual({});
    const next = await b.run(await b.prepare(big), { store: createFileStore(b.stateDir), clock: () => T0 + MINUTE });
    expect(next.thisRun).toMatchObject({ sent: 7, deferred: 5 });
    expect(b.started().size).toBe(10);
  });

  it('the places of a process gone silent lapse 30 seconds after its last sign of life, as a lease: a run meanwhile waits, the next run sends the same contacts', async () => {
    const limits = { limits: { daily_unique_recipients: 10 } };
    const dead = await createFileStore(b.stateDir).budgetHolder();
    expect(await dead.take(10, 10, T0)).toBe(10);
    const early = await b.job('early', Array.from({ length: 4 }, (_, i) => ({ phone: phone(i, 44) })), limits);
    const blocked = await b.run(await b.prepare(early), { store: createFileStore(b.stateDir), clock: () => T0 + 10_000 });
    expect(blocked.thisRun).toMatchObject({ sent: 0, deferred: 4 });
    // Deferred daily_limit until a day later, yet decided again by the next run, which finds the places given back.
    const after = await b.run(await b.prepare(early), { store: createFileStore(b.stateDir), clock: () => T0 + 40_000 });
    expect(after.thisRun).toMatchObject({ sent: 4, deferred: 0 });
    expect(b.started().size).toBe(4);
  });

  it('plan takes no place: it counts from the ledger alone', async () => {
    const { planJob } = await import('../../src/app/index.js');
    const jobFile = await b.job('planned', Array.from({ length: 12 }, (_, i) => ({ phone: phone(i, 46) })), { limits: { daily_unique_recipients: 8 } });
    const plan = await planJob(await b.prepare(jobFile), { store: createFileStore(b.stateDir), clock: () => T0 });
    expect(plan.byAction).toEqual({ template: 8, 'defer:daily_limit': 4 });
    const other = await createFileStore(b.stateDir).budgetHolder();
    expect(await other.take(20, 8, T0)).toBe(8);
  });

  it('status shows the room left for the store, net of the places running processes hold', async () => {
    const jobFile = await b.job('watched', Array.from({ length: 3 }, (_, i) => ({ phone: phone(i, 47) })), { limits: { daily_unique_recipients: 10 } });
    const outcome = await b.run(await b.prepare(jobFile), { clock: () => T0 });
    expect(outcome.thisRun.sent).toBe(3);
    const running = await createFileStore(b.stateDir).budgetHolder();
    expect(await running.take(4, 10, T0 + HOUR)).toBe(4);
    const status = await jobStatus(jobFile, { store: createFileStore(b.stateDir), clock: () => T0 + HOUR });
    expect(status.messaging).toEqual({ used: 3, held: 4, limit: 10, room: 3 });
    expect(formatRoom(status.messaging, T0 + HOUR, 'UTC')).toMatch(/^messaging limit: 3 of 10 left in the rolling 24 hours \(3 recipient\(s\) messaged outside their 24-hour window in the last 24 hours, by every job of the store; 4 place\(s\) held by runs going on\)$/);
  });
});

describe('one messaging-limit budget for two outreach processes (command line)', () => {
  it('two `outreach run` of two jobs on one state folder, at once, start no more recipients between them than the limit, and leave no place held', async () => {
    const { runCli } = await import('../helpers/cli.js');
    b.sim.state.setFaults({ latencyMs: 20 });
    const job = { limits: { daily_unique_recipients: 15 }, rate: { per_second: 20, concurrency: 2 } };
    const east = await b.job('east', Array.from({ length: 25 }, (_, i) => ({ phone: phone(i, 48) })), job);
    const west = await b.job('west', Array.from({ length: 25 }, (_, i) => ({ phone: phone(i, 49) })), job);
    const env = { OUTREACH_BASE_URL: b.sim.url, OUTREACH_TOKEN: b.sim.token, OUTREACH_STATE_DIR: b.stateDir };
    const [x, y] = await Promise.all([runCli(['run', east, '--no-progress'], { env }), runCli(['run', west, '--no-progress'], { env })]);
    expect([x.code, y.code]).toEqual([0, 0]);
    expect(b.started().size).toBe(15);
    expect((await outsideInLedger(b.stateDir)).size).toBe(15);
    const holds = JSON.parse(await readFile(path.join(b.stateDir, 'budget-holds.json'), 'utf8')) as { holds: Record<string, unknown> };
    expect(holds.holds).toEqual({});
    const status = await runCli(['status', east, '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ messaging: { used: 15, limit: 15, room: 0 } });
  }, 60_000);
});
