/**
 * A database session terminated under a run (`pg_terminate_backend`, as an administrator or a
 * failover does): the run replaces the connection and runs the statement again, and ends as if
 * nothing happened. The built CLI against the simulator, on a database of its own in the test
 * cluster (so that the terminations reach no other test's sessions).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign } from '../helpers/campaign.js';
import { runCli } from '../helpers/cli.js';
import { startCli, starts, storeEnv, writtenTwice } from '../helpers/store-faults.js';

const pgUrl = inject('pgUrl');

let sim: RunningSimulator | undefined;
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  await sim?.close();
});

describe.skipIf(!pgUrl)('a database session terminated mid-run', () => {
  it('replaces the connection and goes on: exit 0, everyone sent once, no journal row or ledger entry written twice', async () => {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    cleanups.push(() => admin.end());
    const database = `faults_${process.pid}_${Date.now().toString(36)}`;
    await admin.query(`CREATE DATABASE ${database}`);
    cleanups.push(() => admin.query(`DROP DATABASE ${database} WITH (FORCE)`));
    const store = pgUrl.replace(/\/postgres$/, `/${database}`);

    sim = await startSimulator({ seed: 11 });
    const c = await campaign({ rows: 100, job: { rate: { per_second: 25, concurrency: 2 }, limits: { daily_unique_recipients: 1000 } } });
    cleanups.push(() => c.cleanup());
    const dir = await mkdtemp(path.join(tmpdir(), 'outreach-host-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const run = startCli(['run', c.jobFile, '--no-progress'], storeEnv(sim, store, dir), cleanups);

    // Whenever one of the run's sessions is in the middle of a statement or a transaction, every one of them is terminated.
    let cut = 0;
    while (run.child.exitCode === null && cut < 5) {
      const { rows } = await admin.query<{ busy: boolean; done: boolean }>(
        `SELECT state <> 'idle' AS busy, pg_terminate_backend(pid) AS done FROM pg_stat_activity
          WHERE datname = $1 AND application_name = 'outreach'
            AND EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND application_name = 'outreach' AND state <> 'idle')`,
        [database],
      );
      if (rows.some((r) => r.busy && r.done)) cut += 1;
      await new Promise((r) => setTimeout(r, 20));
    }

    expect(await run.exited, run.output()).toBe(0);
    expect(cut).toBeGreaterThan(0);
    expect(starts(sim)).toBe(c.phones.length);
    for (const phone of c.phones) expect(sim.state.messageCount(phone), phone).toBe(1);
    expect(await writtenTwice(store, 'outreach')).toEqual({ journal: 0, ledger: 0 });
    const status = await runCli(['status', c.jobFile, '--json'], { env: storeEnv(sim, store, dir) });
    expect(JSON.parse(status.stdout).byStatus.sent).toBe(c.phones.length);
  });
});
