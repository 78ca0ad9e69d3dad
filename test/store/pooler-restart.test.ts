/**
 * PgBouncer restarted under a run (a deploy, a config reload done as a restart): its clients'
 * connections are cut ("Connection terminated unexpectedly") and new ones refused for a few seconds.
 * The run waits for it, runs the interrupted statements again on new connections, and ends as if
 * nothing happened. The built CLI against the simulator, through a pooler of its own in transaction
 * pooling in front of the test cluster.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign } from '../helpers/campaign.js';
import { runCli } from '../helpers/cli.js';
import { schemaUrl, startPgbouncer } from '../helpers/pg-cluster.js';
import { startCli, starts, storeEnv, writtenTwice } from '../helpers/store-faults.js';
import { waitFor } from '../helpers/wait.js';

const pgUrl = inject('pgUrl');

let sim: RunningSimulator | undefined;
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  await sim?.close();
});

describe.skipIf(!pgUrl)('the pooler restarted mid-run', () => {
  it('pauses while PgBouncer is down and goes on once it is back: exit 0, everyone sent once, nothing written twice', async () => {
    const bouncer = await startPgbouncer({ port: Number(new URL(pgUrl).port) });
    cleanups.push(() => bouncer.stop());
    const store = schemaUrl(bouncer.url);
    const schema = /schema=(\w+)/.exec(store)?.[1] ?? '';
    sim = await startSimulator({ seed: 12 });
    const c = await campaign({ rows: 80, job: { rate: { per_second: 20, concurrency: 2 }, limits: { daily_unique_recipients: 1000 } } });
    cleanups.push(() => c.cleanup());
    const dir = await mkdtemp(path.join(tmpdir(), 'outreach-host-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const run = startCli(['run', c.jobFile, '--no-progress'], storeEnv(sim, store, dir), cleanups);

    await waitFor(() => starts(sim as RunningSimulator) >= 15 || run.child.exitCode !== null);
    await bouncer.halt();
    const atHalt = starts(sim);
    // Down for a few seconds, as a restart is; the run may not send while it cannot write ahead.
    await new Promise((r) => setTimeout(r, 3_000));
    await bouncer.start();

    expect(await run.exited, run.output()).toBe(0);
    expect(atHalt).toBeLessThan(c.phones.length);
    expect(starts(sim)).toBe(c.phones.length);
    for (const phone of c.phones) expect(sim.state.messageCount(phone), phone).toBe(1);
    expect(await writtenTwice(pgUrl, schema)).toEqual({ journal: 0, ledger: 0 });
    const status = await runCli(['status', c.jobFile, '--json'], { env: storeEnv(sim, store, dir) });
    expect(JSON.parse(status.stdout).byStatus.sent).toBe(c.phones.length);
  });
});
