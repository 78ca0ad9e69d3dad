import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCsv } from '../helpers/campaign.js';
import { cli as runCli } from '../helpers/in-process.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('outreach demo', () => {
  it('runs plan, run with 502s and 429s, resume that heals them, and points at the report and rejects', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-demo-'));
    const stateDir = path.join(dir, 'state');
    const r = await runCli(['demo', '--no-progress', '--state-dir', stateDir]);

    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/== 3\. outreach plan/);
    expect(r.stdout).toMatch(/rejected\s+30/);
    const failedByRun = Number(/run of demo done[\s\S]*?failed\s+(\d+)/.exec(r.stdout)![1]);
    expect(failedByRun).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/answered \d+ times 502/);
    expect(r.stdout).toMatch(/resume of demo done[\s\S]*?sent\s+270\s+failed\s+0/);
    expect(r.stdout).toContain('start-whatsapp calls during resume: 0');

    const report = parseCsv(await readFile(path.join(stateDir, 'demo', 'report.csv'), 'utf8'));
    expect(report).toHaveLength(270);
    expect(report.every((row) => row.status === 'sent')).toBe(true);
    expect(report.some((row) => row.action === 'text+media')).toBe(true);
    expect(r.stdout).toContain(path.join(stateDir, 'demo', 'report.csv'));
    expect(r.stdout).toContain(path.join(stateDir, 'demo', 'rejects.csv'));
    expect(existsSync(path.join(stateDir, 'demo', 'rejects.csv'))).toBe(true);
    // After the run: track reads the deliveries back, the funnel is shown, and the demo ends naming the page.
    expect(r.stdout).toMatch(/outreach track[\s\S]*track of demo: 270 messages read[\s\S]*funnel \(of the sent\)\s+sent\s+270\s+delivered\s+\d+/);
    expect(r.stdout.trimEnd().endsWith(path.join(stateDir, 'demo', 'report.html'))).toBe(true);
    expect(existsSync(path.join(stateDir, 'demo', 'report.html'))).toBe(true);
  });

  it('never empties a folder that is not its own', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-demo-'));
    const r = await runCli(['demo', '--no-progress', '--state-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a demo folder/);
  });
});
