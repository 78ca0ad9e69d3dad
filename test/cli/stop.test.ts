import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, parseCsv, type Campaign } from '../helpers/campaign.js';
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

describe('outreach stop', () => {
  it('stops a running job from another terminal as one SIGTERM does: exit 3, journal consistent, resume sends the rest once', async () => {
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 100, job: { rate: { per_second: 20, concurrency: 2 } } });
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir };
    let stdout = '';
    let stderr = '';
    const child = spawn(process.execPath, [cliPath, 'run', c.jobFile, '--no-progress'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => (stdout += String(d)));
    child.stderr.on('data', (d: Buffer) => (stderr += String(d)));
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    await waitFor(() => sim.state.counters.total > 10);

    const stop = await cli(['stop', c.jobFile], { env });
    expect(stop.code).toBe(0);
    expect(stop.stdout).toContain(`asked pid ${child.pid} on this host to stop job cli-test (as one SIGTERM does): it finishes the requests in flight, then exits`);
    expect(await exited).toBe(3);
    expect(stderr).toMatch(/SIGTERM: stopping after the requests in flight/);
    expect(stdout).toMatch(/pending/);

    const rows = parseCsv(await readFile(path.join(c.stateDir, 'cli-test', 'report.csv'), 'utf8'));
    const sent = rows.filter((r) => r.status === 'sent').length;
    expect(sent).toBe(sim.state.counters.byEndpoint[START]);
    expect(rows.filter((r) => r.status === 'pending').length).toBe(100 - sent);

    const resumed = await cli(['resume', c.jobFile, '--no-progress'], { env });
    expect(resumed.code).toBe(0);
    for (const p of c.phones) expect(sim.state.startWhatsappCount(p)).toBe(1);
  });

  it('says nothing holds the job when no run does', async () => {
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 2 });
    const r = await cli(['stop', c.jobFile, '--state-dir', c.stateDir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('nothing holds job cli-test: no run, resume or track of it is going on\n');
  });
});
