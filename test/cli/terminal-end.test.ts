import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cliPath } from '../helpers/cli.js';
import { hasTmux, terminal } from '../helpers/terminal.js';

let sim: RunningSimulator;
let c: Campaign;
let term: Awaited<ReturnType<typeof terminal>> | undefined;
afterEach(async () => {
  await term?.close();
  await sim?.close();
  await c?.cleanup();
});

/** The job run in a terminal of its own, from a cleared screen: the bar is drawn on its top lines. */
async function runInTerminal(rows = 300): Promise<NonNullable<typeof term>> {
  // Answers between 0.1 and 2.9 s: requests are still in flight, and the bar still moving, after a Ctrl-C.
  sim = await startSimulator({ seed: 3, faults: { latencyMs: 1500, latencyJitterMs: 1400 } });
  c = await campaign({ rows, job: { rate: { per_second: 10, concurrency: 8 } } });
  const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir, NO_COLOR: '1', LANG: 'C.UTF-8' };
  term = await terminal(`clear; '${process.execPath}' '${cliPath}' run '${c.jobFile}'; echo "EXIT=$?"; sleep 600`, { env });
  return term;
}

describe.skipIf(!(await hasTmux()))('a run on a terminal', () => {
  it('clears its progress bar before the Ctrl-C line, so the summary after it reads whole', async () => {
    const t = await runInTerminal();
    await t.until(/ETA .* ok [1-9]/);
    await t.keys('C-c');
    const screen = await t.until(/EXIT=3/);
    const lines = screen.split('\n').map((l) => l.trimEnd());
    expect(lines).toContain('SIGINT: stopping after the requests in flight (SIGINT again to cut them)');
    expect(lines.some((l) => /^run of cli-test interrupted after /.test(l))).toBe(true);
    expect(lines.some((l) => /^contacts +300$/.test(l))).toBe(true);
    expect(lines.some((l) => /^ {2}sent +\d+$/.test(l))).toBe(true);
    expect(screen).not.toMatch(/ETA|░|█/);
  }, 90_000);

  it('clears its progress bar at the end of a run that went to its end', async () => {
    const t = await runInTerminal(60);
    await t.until(/ETA .* ok [1-9]/);
    sim.state.setFaults({ latencyMs: 0, latencyJitterMs: 0 });
    const screen = await t.until(/EXIT=0/, 60_000);
    expect(screen.split('\n').some((l) => /^contacts +60$/.test(l))).toBe(true);
    expect(screen).not.toMatch(/ETA|░|█/);
  }, 90_000);
});
