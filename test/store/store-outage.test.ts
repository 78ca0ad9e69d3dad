/**
 * The database gone for longer than the store waits (OUTREACH_STORE_PATIENCE_SECONDS, short here):
 * the run sends nothing while it cannot write ahead, then stops (exit 3) in one sentence that says
 * why and each step after it once, in order; summary.json and run.log's last line say why and what
 * was in flight. Once the database is back, reconcile and resume finish with everyone once. The
 * built CLI against the simulator, on a cluster of its own (stopped and started again).
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign } from '../helpers/campaign.js';
import { runCli } from '../helpers/cli.js';
import { startCluster, type Cluster } from '../helpers/pg-cluster.js';
import { startCli, starts, storeEnv } from '../helpers/store-faults.js';
import { waitFor } from '../helpers/wait.js';

const pgUrl = inject('pgUrl');

let sim: RunningSimulator | undefined;
let cluster: Cluster | undefined;
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  await sim?.close();
  await cluster?.destroy();
  cluster = undefined;
});

/** Runs the command again while the job is refused because the stopped run's lease has not ended yet (it could not give it back). */
async function onceLeaseEnds(args: string[], env: NodeJS.ProcessEnv): Promise<Awaited<ReturnType<typeof runCli>>> {
  let r = await runCli(args, { env });
  for (let i = 0; i < 40 && r.code === 2 && /already running/.test(r.stderr); i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    r = await runCli(args, { env });
  }
  return r;
}

describe.skipIf(!pgUrl)('the database away for longer than the store waits', () => {
  it('sends nothing without its write ahead, stops (exit 3) with summary.json and a last run.log line saying why and what was in flight; reconcile and resume then finish', async () => {
    sim = await startSimulator({ seed: 13 });
    // Durable as a real server is: an immediate stop then loses no commit it acknowledged.
    cluster = await startCluster({ durable: true });
    const concurrency = 2;
    // Rows for 7.5 s at the rate: on a busy machine the database's stop may take seconds, and the run must still be going then.
    const c = await campaign({ rows: 300, job: { rate: { per_second: 40, concurrency } } });
    cleanups.push(() => c.cleanup());
    const dir = await mkdtemp(path.join(tmpdir(), 'outreach-host-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const env = storeEnv(sim, cluster.url, dir, { OUTREACH_STORE_PATIENCE_SECONDS: '2' });
    const run = startCli(['run', c.jobFile, '--no-progress'], env, cleanups);
    await waitFor(() => starts(sim as RunningSimulator) >= 15 || run.child.exitCode !== null);
    await cluster.stop('immediate');
    const atStop = starts(sim);

    expect(await run.exited, run.output()).toBe(3);
    // Only the requests already out when the database went (at most one per worker) reached the platform.
    expect(starts(sim)).toBeLessThanOrEqual(atStop + concurrency);
    expect(atStop).toBeLessThan(c.phones.length);
    const said = run.output().trim().split('\n');
    expect(said, run.output()).toHaveLength(1);
    const sentence = said[0] ?? '';
    expect(sentence).toMatch(/could not write .* to the store \(database postgres on 127\.0\.0\.1:\d+\): .*still unreachable after 2 s; nothing more was sent: /);
    // Each step once, in order: reconcile (when contacts were in flight) before resume.
    expect(sentence.match(/outreach resume/g)).toHaveLength(1);
    expect(sentence.match(/outreach reconcile/g)?.length ?? 0).toBeLessThanOrEqual(1);
    if (sentence.includes('outreach reconcile')) expect(sentence.indexOf('outreach reconcile')).toBeLessThan(sentence.indexOf('outreach resume'));

    const summary = JSON.parse(await readFile(path.join(dir, 'cli-test', 'summary.json'), 'utf8')) as { stopped: string; stop_message: string; in_flight: string[]; this_run: { sent: number } };
    expect(summary.stopped).toBe('store');
    expect(sentence).toContain(summary.stop_message);
    expect(summary.this_run.sent).toBeGreaterThan(0);
    for (const phone of summary.in_flight) expect(c.phones).toContain(phone);
    const log = (await readFile(path.join(dir, 'cli-test', 'run.log'), 'utf8')).trim().split('\n');
    const last = JSON.parse(log[log.length - 1] ?? '{}') as { stopped?: string; in_flight?: string[]; msg?: string };
    expect(last.stopped).toBe('store');
    expect(last.msg).toContain('nothing more was sent');
    expect(last.in_flight).toEqual(summary.in_flight);

    await cluster.start();
    // The stopped run could not give its lease back (the database was gone): the job is free once it ends.
    const reconciled = await onceLeaseEnds(['reconcile', c.jobFile, '--settle-minutes', '0'], env);
    expect(reconciled.code, reconciled.stderr).toBe(0);
    const resumed = await runCli(['resume', c.jobFile, '--no-progress'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    for (const phone of c.phones) expect(sim.state.messageCount(phone), phone).toBe(1);
  });
});
