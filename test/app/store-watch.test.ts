import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyRooms, jobStatus, recipientPage, recipientsCsv, storeWatch, type JobFigures } from '../../src/app/index.js';
import { phaseOf, progressOf, rateMeter } from '../../src/app/watch/index.js';
import { createFileStore, type StateStore } from '../../src/checkpoint/backends.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, parseCsv, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

let sim: RunningSimulator;
let c: Campaign;
let store: StateStore;
let env: { env: Record<string, string> };

beforeAll(async () => {
  sim = await startSimulator({ seed: 34, faults: { providerErrors: { 131026: 0.25 } } });
  c = await campaign({ rows: 40, bad: 1, job: { limits: { daily_unique_recipients: 1000 } } });
  env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
  expect([0, 1]).toContain((await cli(['run', c.jobFile, '--no-progress'], env)).code);
  store = createFileStore(c.stateDir);
}, 60_000);

afterAll(async () => {
  await sim?.close();
  await c?.cleanup();
});

describe('watching the jobs of a store', () => {
  it('lists every job with the figures `status` reads from its job file: contacts by status, funnel, messaging limit, finished or idle', async () => {
    const [figures, ...others] = await storeWatch(store).jobs();
    expect(others).toEqual([]);
    const status = await jobStatus(c.jobFile, { store });
    expect(figures).toMatchObject({ key: 'cli-test', name: 'cli-test', company: 1, from: { kind: 'job_file', file: c.jobFile } });
    expect(figures?.status.summary.byStatus).toEqual(status.summary.byStatus);
    expect(figures?.status.funnel).toEqual(status.funnel);
    expect(figures?.status.messaging).toMatchObject({ limit: 1000, used: status.messaging.used, room: status.messaging.room });
    expect(status.summary.byStatus.failed).toBeGreaterThan(0);
    expect(figures?.phase).toEqual({ kind: 'idle', notDone: status.notDone });
    expect(figures?.progress).toEqual({ done: 40, total: 40 });
    // The rate asked: 200 requests a second, each send one request.
    expect(figures?.rate).toMatchObject({ askedPerMinute: 12_000, askedRequestsPerSecond: 200, requestsPerSend: 1 });
    expect(figures?.rate.perMinute).toBeUndefined();
  });

  it('pages the recipients as report.csv has them, filtered by status and by the digits of a phone', async () => {
    expect((await cli(['report', c.jobFile], env)).code).toBeLessThan(2);
    const report = parseCsv(await readFile(path.join(c.stateDir, 'cli-test', 'report.csv'), 'utf8'));
    const rows = await storeWatch(store).rows('cli-test');
    if (rows === undefined) throw new Error('no rows');
    const failed = report.filter((r) => r.status === 'failed');
    const first = recipientPage(rows.rows(), { status: 'failed' }, 1, 3);
    expect(first.rows.map((r) => r.phone)).toEqual(failed.slice(0, 3).map((r) => r.phone));
    expect(first.more).toBe(failed.length > 3);
    const all = recipientPage(rows.rows(), { status: 'failed' }, 1, 1000);
    expect(all.rows.map((r) => r.phone)).toEqual(failed.map((r) => r.phone));
    expect(all.more).toBe(false);
    const second = recipientPage(rows.rows(), {}, 2, 10);
    expect(second.rows.map((r) => r.phone)).toEqual(report.slice(10, 20).map((r) => r.phone));
    const one = report[7]!.phone!;
    expect(recipientPage(rows.rows(), { phone: `(${one.slice(3, 5)}) ${one.slice(5)}` }, 1, 10).rows.map((r) => r.phone)).toEqual([one]);
    expect(recipientPage(rows.rows(), { status: 'sent', phone: 'no digits' }, 1, 1000).rows).toHaveLength(report.filter((r) => r.status === 'sent').length);
  });

  it("writes a filter's rows as report.csv writes them: its header, its cells, its lines", async () => {
    const text = await readFile(path.join(c.stateDir, 'cli-test', 'report.csv'), 'utf8');
    const [header, ...lines] = text.trimEnd().split('\n');
    const rows = await storeWatch(store).rows('cli-test');
    if (rows === undefined) throw new Error('no rows');
    const csv = [...recipientsCsv(rows.rows(), { status: 'failed' }, rows.layout)].join('');
    const failedLines = lines.filter((l) => l.split(',')[1] === 'failed');
    expect(csv).toBe(`${[header, ...failedLines].join('\n')}\n`);
    // The spreadsheet form as `report --excel` writes it.
    const out = path.join(c.dir, 'excel.csv');
    expect((await cli(['report', c.jobFile, '--excel', '--out', out], env)).code).toBeLessThan(2);
    const [excelHeader, ...excelLines] = (await readFile(out, 'utf8')).trimEnd().split('\n');
    const excel = [...recipientsCsv(rows.rows(), { status: 'failed' }, rows.layout, true)].join('');
    expect(excel).toBe(`${[excelHeader, ...excelLines.filter((l) => l.split(';')[1] === 'failed')].join('\n')}\n`);
    expect(excel.startsWith('\uFEFFphone;status;')).toBe(true);
  });

  it("falls back to the store's own figures when the job file cannot be read here, saying why", async () => {
    const moved = await campaign({ rows: 3, name: 'moved' });
    try {
      const movedStore = createFileStore(moved.stateDir);
      const job = await movedStore.account(1).openJob('moved', { pid: 1, host: 'elsewhere', startedAt: '2025-01-01T00:00:00.000Z', command: 'run' });
      await job.record({ t: 'header', v: 1, job: 'moved', fingerprint: 'f', content: { company_id: 1, channel_id: 10 }, job_file: moved.jobFile, host: 'elsewhere', at: '2025-01-01T00:00:00.000Z' });
      await job.record({ t: 'sent', phone: moved.phones[0]!, via: 'start', action: 'template', conversation_id: 'c1', client_id: 'k1', message_id: 'm1', at: '2025-01-01T00:00:01.000Z' });
      await job.close();
      await rm(moved.jobFile);
      const [figures] = await storeWatch(movedStore).jobs();
      expect(figures?.from.kind).toBe('store');
      expect(figures?.from.kind === 'store' && figures.from.why).toContain(`${moved.jobFile} cannot be read here`);
      expect(figures?.status.summary.byStatus).toMatchObject({ sent: 1, pending: 0 });
      expect(figures?.status.listProblem).toMatch(/the store's figures alone/);
      expect(figures?.phase).toEqual({ kind: 'finished' });
      expect(figures?.rate.askedPerMinute).toBeUndefined();
      expect(figures?.startedFrom).toEqual({ host: 'elsewhere', file: moved.jobFile });
    } finally {
      await moved.cleanup();
    }
  });

  it('says a held job is running, by whom since when, and stops it as `outreach stop` does (the holder signalled on this host, named on another)', async () => {
    const held = await store.openJob('cli-test', { pid: process.pid, startedAt: '2026-01-01T10:00:00.000Z', command: 'resume', jobFile: c.jobFile });
    try {
      const watch = storeWatch(store);
      const figures = await watch.job('cli-test');
      expect(figures?.phase).toMatchObject({ kind: 'running', runner: { pid: process.pid, since: '2026-01-01T10:00:00.000Z', command: 'resume' } });
      const signalled: number[] = [];
      const host = figures?.phase.kind === 'running' ? figures.phase.runner.host : '';
      expect(await watch.stop('cli-test', { host, signal: (pid) => (signalled.push(pid), true) })).toMatchObject({ kind: 'signalled' });
      expect(signalled).toEqual([process.pid]);
      expect(await watch.stop('cli-test', { host: 'another-host', signal: (pid) => (signalled.push(pid), true) })).toMatchObject({ kind: 'other_host' });
      expect(signalled).toEqual([process.pid]);
      expect(await watch.stop('no-such-job', { host, signal: () => true })).toBeUndefined();
      expect(await watch.job('no-such-job')).toBeUndefined();
    } finally {
      await held.close();
    }
  });
});

describe('the figures of a job, as pure decisions', () => {
  const summary = (pending: number, inFlight?: number) => ({ total: 100, byStatus: { sent: 100 - pending, failed: 0, in_doubt: 0, skipped: 0, deferred: 0, pending }, byAction: {}, topErrors: [], failureClasses: [], afterSendFailed: { contacts: 0, bySteps: {} }, ...(inFlight !== undefined && { inFlight }) });
  const runner = { pid: 7, host: 'h', since: '2026-01-01T00:00:00.000Z', command: 'run' };

  it('tells running, gone, finished and idle apart, with the first deferred time', () => {
    expect(phaseOf({ running: runner, notDone: 3, deferred: [], summary: summary(3) })).toEqual({ kind: 'running', runner });
    expect(phaseOf({ running: { ...runner, gone: { until: 'x' } }, notDone: 3, deferred: [], summary: summary(3) }).kind).toBe('gone');
    expect(phaseOf({ notDone: 0, deferred: [], summary: summary(0) })).toEqual({ kind: 'finished' });
    const deferred = { ...summary(0), byStatus: { ...summary(0).byStatus, deferred: 2 } };
    expect(phaseOf({ notDone: 0, deferred: [{ reason: 'quiet_hours', count: 1, notBefore: '2026-01-02T09:00:00.000Z' }, { reason: 'window', count: 1, notBefore: '2026-01-01T09:00:00.000Z' }], summary: deferred })).toEqual({ kind: 'idle', notDone: 2, nextAt: '2026-01-01T09:00:00.000Z' });
  });

  it('times what is left at the rate measured, else at the rate asked while it runs, and not at all when it does not', () => {
    const running = { kind: 'running' as const, runner };
    expect(progressOf({ summary: summary(50, 10) }, running, { perMinute: 30, overMs: 60_000, askedPerMinute: 120 })).toEqual({ done: 40, total: 100, eta: { ms: 120_000, by: 'measured' } });
    expect(progressOf({ summary: summary(60) }, running, { overMs: 0, askedPerMinute: 120 })).toEqual({ done: 40, total: 100, eta: { ms: 30_000, by: 'asked' } });
    expect(progressOf({ summary: summary(60) }, { kind: 'idle', notDone: 60 }, { perMinute: 30, overMs: 0 })).toEqual({ done: 40, total: 100 });
  });

  it('measures sends a minute over the last minute of samples, from 4 s on, afresh after a forget or a count that went down', () => {
    const meter = rateMeter();
    expect(meter.sample('a', 0, 0)).toEqual({ overMs: 0 });
    expect(meter.sample('a', 2_000, 2)).toEqual({ overMs: 2_000 });
    expect(meter.sample('a', 6_000, 6)).toEqual({ perMinute: 60, overMs: 6_000 });
    for (let t = 8_000; t <= 120_000; t += 2_000) meter.sample('a', t, t / 1000 + (t > 60_000 ? (t - 60_000) / 1000 : 0));
    expect(meter.sample('a', 122_000, 184)).toEqual({ perMinute: 120, overMs: 60_000 });
    meter.forget('a');
    expect(meter.sample('a', 130_000, 200)).toEqual({ overMs: 0 });
    expect(meter.sample('a', 140_000, 10)).toEqual({ overMs: 0 });
  });

  it("gives each company's room against the tightest limit its jobs set", () => {
    const fig = (name: string, company: number | undefined, limit?: number) => ({ name, company, status: { messaging: { used: 5, ...(limit !== undefined && { limit, room: limit - 5 }) } } }) as unknown as JobFigures;
    expect(companyRooms([fig('a', 1, 100), fig('b', 1, 50), fig('c', 1), fig('d', 2), fig('e', undefined)])).toEqual([
      { room: { used: 5 } },
      { company: 1, room: { used: 5, limit: 50, room: 45 }, job: 'b' },
      { company: 2, room: { used: 5 } },
    ]);
  });
});
