import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCsv } from '../helpers/campaign.js';
import { cli as runCli } from '../helpers/in-process.js';
import { DEMO_WAIT_MS, sharedDemo } from '../helpers/shared-demo.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('outreach demo', () => {
  it('runs plan, run with 502s and 429s, resume that heals them, skips a STOP reply and a suppressed contact, shows an undeliverable number and a marketing-limit deferral, and points at the report and rejects', async () => {
    // The run's one demo (file-modes and store-command read the same one).
    const { stateDir, ...ran } = await sharedDemo();
    // Without a terminal each line of a run's end carries a timestamp: read the lines without it.
    const r = { ...ran, stdout: ran.stdout.replace(/^\d{4}-\d\d-\d\dT\S+Z /gm, '') };

    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/== 3\. outreach plan/);
    expect(r.stdout).toMatch(/rejected\s+30/);
    const failedByRun = Number(/run of demo done[\s\S]*?failed\s+(\d+)/.exec(r.stdout)![1]);
    expect(failedByRun).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/answered \d+ times 502/);
    expect(r.stdout).toMatch(/replied "PARAR" \(STOP, in Portuguese\): an opt-out keyword/);
    expect(r.stdout).toMatch(/outreach suppress add \+\d+ --state-dir \S+ --reason/);
    expect(r.stdout).toMatch(/skip:suppressed\s+2/);
    expect(r.stdout).toMatch(/resume of demo done[\s\S]*?sent\s+266\s+failed\s+1\s+see report for why\s+in doubt\s+0\s+skipped\s+2\s+deferred\s+1/);
    expect(r.stdout).toContain('start-whatsapp calls during resume: 0');
    expect(r.stdout).toMatch(/failures by class\n\s+undeliverable\s+1\s+e\.g\. the number cannot receive WhatsApp messages \(131026\)/);
    expect(r.stdout).toMatch(/: deferred \(marketing_limit\) until (?:[A-Z][a-z]{2} |\d{4}-\d\d-\d\d )?\d\d:\d\d [A-Za-z_/]+; a run after that/);

    const report = parseCsv(await readFile(path.join(stateDir, 'demo', 'report.csv'), 'utf8'));
    expect(report).toHaveLength(270);
    expect(report.filter((row) => row.status === 'sent')).toHaveLength(266);
    expect(report.filter((row) => row.status !== 'sent').map((row) => [row.status, row.action, row.error_code, row.error_class])).toEqual(
      expect.arrayContaining([
        ['skipped', 'skip:suppressed', '', ''],
        ['failed', 'template', '131026', 'undeliverable'],
        ['deferred', 'defer:marketing_limit', '131049', 'marketing_limit'],
      ]),
    );
    expect(report.some((row) => row.action === 'text+media')).toBe(true);
    expect(r.stdout).toContain(path.join(stateDir, 'demo', 'report.csv'));
    expect(r.stdout).toContain(path.join(stateDir, 'demo', 'rejects.csv'));
    expect(existsSync(path.join(stateDir, 'demo', 'rejects.csv'))).toBe(true);
    // After the run: track reads the deliveries back, the funnel is shown, and the demo ends naming the page.
    expect(r.stdout).toMatch(/outreach track[\s\S]*track of demo: 266 messages read[\s\S]*funnel \(of the sent\)\s+sent\s+266\s+delivered\s+\d+/);
    expect(r.stdout.trimEnd().endsWith(path.join(stateDir, 'demo', 'report.html'))).toBe(true);
    expect(existsSync(path.join(stateDir, 'demo', 'report.html'))).toBe(true);
  }, DEMO_WAIT_MS);

  it('never empties a folder that is not its own', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-demo-'));
    const r = await runCli(['demo', '--no-progress', '--state-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a demo folder/);
  });
});
