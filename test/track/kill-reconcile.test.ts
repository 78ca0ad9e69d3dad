import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator, type TemplateDisplay } from '../../src/sim/index.js';
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

function env() {
  return { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir };
}

/**
 * Starts the built CLI's `run` and kills it with SIGKILL once the simulator has seen `starts` first
 * messages; from `dropFrom` on, some connections are cut before the platform reads them.
 */
async function runAndKill(starts: number, dropFrom = Infinity): Promise<void> {
  const child = spawn(process.execPath, [cliPath, 'run', c.jobFile, '--no-progress'], { env: { ...process.env, ...env() }, stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  const seen = () => sim.state.counters.byEndpoint[START] ?? 0;
  if (dropFrom < starts) {
    await waitFor(() => seen() >= dropFrom || child.exitCode !== null);
    sim.state.setFaults({ dropRate: 0.2 });
  }
  await waitFor(() => seen() >= starts || child.exitCode !== null);
  expect(child.exitCode).toBeNull();
  child.kill('SIGKILL');
  await exited;
}

async function report() {
  return parseCsv(await readFile(path.join(c.stateDir, 'cli-test', 'report.csv'), 'utf8'));
}

// The platform's message list shows a template message in full (header, body, footer, buttons) or its body alone;
// the job's template (promo_bf pt_BR) has a footer and a button, so the two differ.
describe.each<TemplateDisplay>(['full', 'body'])('after a kill -9 storm, reconcile then resume (template messages listed: %s)', (templateDisplay) => {
  it('ends with no contact in doubt and exactly one first message per contact (the simulator counts them)', async () => {
    // Latency keeps several requests in flight at each kill: some reach the platform with their answer lost.
    sim = await startSimulator({ seed: 11, templateDisplay, faults: { latencyMs: 40, latencyJitterMs: 30 } });
    c = await campaign({ rows: 120, job: { rate: { per_second: 200, concurrency: 8 } } });
    // Two kills make the storm: the second run starts from the first one's contacts in doubt and is killed in turn,
    // after some of its connections were cut before the platform read them (those messages never exist), so
    // reconcile meets both kinds, found and never sent, from runs that each began where a killed one left off. A
    // third kill adds more of the same kinds, and each run after a kill waits out its killed predecessor's claim
    // on the number's rate.
    await runAndKill(25);
    await runAndKill(90, 55);
    sim.state.setFaults({ dropRate: 0 });
    // The requests in flight at the last kill finish on the platform (the settling delay's reason).
    await new Promise((r) => setTimeout(r, 300));

    const doubtful = (await cli(['status', c.jobFile, '--json'], { env: env() })).stdout;
    const inDoubt = JSON.parse(doubtful).byStatus.in_doubt as number;
    expect(inDoubt).toBeGreaterThan(0);

    const reconciled = await cli(['reconcile', c.jobFile, '--settle-minutes', '0', '--json'], { env: env() });
    expect(reconciled.stderr).toBe('');
    const outcome = JSON.parse(reconciled.stdout);
    expect(outcome).toMatchObject({ inDoubt, unresolved: [], notDone: 0 });
    expect(outcome.sent + outcome.pending).toBe(inDoubt);
    expect(outcome.sent).toBeGreaterThan(0);
    expect(outcome.pending).toBeGreaterThan(0);
    expect(reconciled.code).toBe(0);
    // Found ones carry the ids of the message the simulator holds; the others have no message there.
    const afterReconcile = await report();
    for (const row of afterReconcile) {
      expect(row.status).not.toBe('in_doubt');
      if (row.status === 'sent') expect(sim.state.messageCount(row.phone!)).toBe(1);
      if (row.status === 'pending') expect(sim.state.messageCount(row.phone!)).toBe(0);
    }

    const resumed = await cli(['resume', c.jobFile, '--no-progress'], { env: env() });
    expect(resumed.code).toBe(0);
    const rows = await report();
    expect(rows).toHaveLength(120);
    expect(rows.filter((r) => r.status !== 'sent')).toEqual([]);
    for (const phone of c.phones) {
      expect(sim.state.startWhatsappCount(phone), phone).toBe(1);
      expect(sim.state.messageCount(phone), phone).toBe(1);
    }
  }, 60_000);
});
