/**
 * Commands on a database store (the run through the built CLI in a process of its own, the others
 * through the same command line in this process): a run keeps its state in the database and only the
 * files for people in its folder; status on another folder (another host)
 * reads it; every other command that reads or writes state works on it too; no output or file shows
 * the store's password.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { cli as inProcess } from '../helpers/in-process.js';
import { schemaUrl } from '../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');
const PASSWORD = 'Sekr1t-pw-9c2e';

/** The test cluster's URL, with a password the cluster never checks (it trusts every connection). */
const storeUrl = () => schemaUrl(pgUrl).replace(/^postgres:\/\/([^@:/]+)@/, `postgres://$1:${PASSWORD}@`);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name))).sort();
}

let sim: RunningSimulator | undefined;
let c: Campaign | undefined;
afterEach(async () => {
  await sim?.close();
  await c?.cleanup();
});

describe.skipIf(!pgUrl)('commands on a database store', () => {
  it('keeps a run\'s state in the database: the folder holds only the files for people, status on another folder reads it, and the password appears nowhere', async () => {
    sim = await startSimulator({ seed: 5 });
    c = await campaign({ rows: 20, bad: 1 });
    const url = storeUrl();
    const here = path.join(c.dir, 'host-a');
    const there = path.join(c.dir, 'host-b');
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token };
    const results: CliResult[] = [];
    // The run in a process of its own, end to end; the other commands in this process (the same command line, no
    // process started for each), every output kept to be searched for the password.
    const cli = async (args: string[], extra: Record<string, string> = {}, where: 'own process' | 'this process' = 'this process') => {
      const r = await (where === 'own process' ? runCli : inProcess)(args, { env: { ...env, ...extra } });
      results.push(r);
      return r;
    };

    const plan = await cli(['plan', c.jobFile, '--json', '--store', url, '--state-dir', here]);
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout).planned_by_action).toEqual({ template: 20 });

    const run = await cli(['run', c.jobFile, '--no-progress', '--state-dir', here], { OUTREACH_STORE: url }, 'own process');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(await filesUnder(here)).toEqual(['cli-test/rejects.csv', 'cli-test/report.csv', 'cli-test/run.log', 'cli-test/summary.json']);

    const status = await cli(['status', c.jobFile, '--json', '--state-dir', there], { OUTREACH_STORE: url });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).byStatus).toMatchObject({ sent: 20, pending: 0 });

    const report = await cli(['report', c.jobFile, '--state-dir', there], { OUTREACH_STORE: url });
    expect(report.code).toBe(0);
    expect(await filesUnder(there)).toContain('cli-test/report.csv');

    const resumed = await cli(['resume', c.jobFile, '--no-progress', '--state-dir', there], { OUTREACH_STORE: url });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/sent +20/);
    const tracked = await cli(['track', c.jobFile, '--json', '--state-dir', there], { OUTREACH_STORE: url });
    expect(tracked.code, tracked.stderr).toBe(0);
    const reconciled = await cli(['reconcile', c.jobFile, '--settle-minutes', '0', '--state-dir', there], { OUTREACH_STORE: url });
    expect(reconciled.code, reconciled.stderr).toBe(0);
    const phone = c.phones[3] ?? '';
    const shown = await cli(['show', c.jobFile, phone, '--json', '--state-dir', there], { OUTREACH_STORE: url });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ phone, state: { status: 'sent' } });
    const synced = await cli(['sync', '--json', '--state-dir', there], { OUTREACH_STORE: url });
    expect(synced.code, synced.stderr).toBe(0);

    const added = await cli(['suppress', 'add', '+5511987654321', '--store', url]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(':***@');
    const list = await cli(['suppress', 'list'], { OUTREACH_STORE: url });
    expect(list.stdout).toContain('+5511987654321');

    for (const r of results) expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
    for (const dir of [here, there]) {
      for (const file of await filesUnder(dir)) expect((await readFile(path.join(dir, file), 'latin1')).includes(PASSWORD), file).toBe(false);
    }
  }, 120_000); // a dozen commands one after another: a busy machine takes more than the default half-minute

  it('stops status on a store that cannot be reached in one sentence naming it, exit 3', async () => {
    c = await campaign({ rows: 2 });
    const r = await runCli(['status', c.jobFile], { env: { OUTREACH_STORE: `postgres://runner:${PASSWORD}@127.0.0.1:1/campaigns` } });
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/outreach: the store \(database campaigns on 127\.0\.0\.1:1\) cannot be used/);
    expect(r.stderr).not.toContain(PASSWORD);
  });
});
