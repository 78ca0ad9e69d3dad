import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { cli as runCli } from '../helpers/in-process.js';

let stateDir: string;
beforeAll(async () => {
  stateDir = await mkdtemp(path.join(os.tmpdir(), 'outreach-examples-'));
});
afterAll(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

describe('the example jobs pass `outreach plan --offline`', () => {
  it.each([
    ['jobs/black-friday.json', 'wba'],
    ['jobs/first-campaign.json', 'wba'],
    ['jobs/ww-text-media.json', 'ww'],
    ['jobs/nightly-import.json', 'whatsapp'],
    ['jobs/demo.json', 'wba'],
    ['jobs/pool.json', 'wba'],
  ])('%s on a %s channel', async (job, type) => {
    const r = await runCli(['plan', path.join(repoRoot, job), '--offline', '--channel-type', type, '--state-dir', stateDir, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan.contacts).toBeGreaterThan(0);
    expect(plan.rejected / plan.rows).toBeLessThanOrEqual(0.2);
  });
});
