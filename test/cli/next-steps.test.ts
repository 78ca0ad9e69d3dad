import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator, type SimFaults } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cliPath } from '../helpers/cli.js';
import { cli } from '../helpers/in-process.js';
import { waitFor } from '../helpers/wait.js';

const START = 'POST /chat/conversations/start-whatsapp';

let sim: RunningSimulator;
let c: Campaign;
afterEach(async () => {
  await sim?.close();
  await c?.cleanup();
});

async function setup(faults: SimFaults, job: Record<string, unknown> = {}) {
  sim = await startSimulator({ seed: 4, faults });
  c = await campaign({ rows: 5, job: { retry: { attempts: 0, backoff_ms: 1 }, ...job } });
  return { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
}

describe('what to do next, after a run that did not finish everything', () => {
  it('says that only resume retries the failed contacts (a 502), and status says it too', async () => {
    const env = await setup({ failRate: 1 });
    const run = await cli(['run', c.jobFile, '--no-progress'], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('failed 5: `outreach resume` retries those a retry can heal (a 502, a timeout) on their own conversations; `outreach run` leaves them as they are');
    const status = await cli(['status', c.jobFile], env);
    expect(status.stdout).toContain('failed 5: `outreach resume` retries');
  });

  it('names reconcile for the contacts in doubt after a kill', async () => {
    const env = await setup({ latencyMs: 5 }, { rate: { per_second: 50, concurrency: 2 } });
    const child = spawn(process.execPath, [cliPath, 'run', c.jobFile, '--no-progress'], { env: { ...process.env, ...env.env }, stdio: 'ignore' });
    await waitFor(() => (sim.state.counters.byEndpoint[START] ?? 0) >= 1);
    // From here the platform holds every answer: the requests in flight are in doubt when the run is killed.
    sim.state.setFaults({ latencyMs: 600_000 });
    await waitFor(() => (sim.state.counters.byEndpoint[START] ?? 0) >= 3);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const status = await cli(['status', c.jobFile], env);
    expect(status.stdout).toMatch(/in doubt +[1-9] +may have reached the platform: `outreach reconcile` checks them before any is sent again/);
    expect(status.stdout).toMatch(/in doubt [1-9]: may have reached the platform; `outreach reconcile` checks them there first, then `outreach resume` sends the ones it did not find/);
  });

  it('says a resume of a job that never ran is its first run, and only then', async () => {
    const env = await setup({});
    const first = await cli(['resume', c.jobFile, '--no-progress'], env);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('resume of cli-test: the job has never run, so there is nothing to resume; this is its first run, sending the list (about 5 contacts)');
    expect(first.stdout).toMatch(/resume of cli-test done in [\d.]+ s \(the job had never run: this was its first run\)$/m);
    const again = await cli(['resume', c.jobFile, '--no-progress'], env);
    expect(again.stderr).toBe('');
    expect(again.stdout).not.toContain('first run');
  });

  it('says "1 row" of a single reject', async () => {
    sim = await startSimulator({ seed: 4 });
    c = await campaign({ rows: 9, bad: 1 });
    const run = await cli(['run', c.jobFile, '--no-progress'], { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } });
    expect(run.stdout).toMatch(/rejects: .*rejects\.csv \(1 row\)\n/);
  });
});
