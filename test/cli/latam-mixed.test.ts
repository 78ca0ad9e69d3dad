import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';

let stateDir: string;
beforeAll(async () => {
  stateDir = await mkdtemp(path.join(os.tmpdir(), 'outreach-latam-'));
});
afterAll(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

describe('jobs/latam-mixed.json (a country column and message variants)', () => {
  it('passes `outreach plan --offline` on a wba channel, rejecting only the row whose +55 number says MX', async () => {
    const job = path.join(repoRoot, 'jobs/latam-mixed.json');
    const r = await runCli(['plan', job, '--offline', '--channel-type', 'wba', '--state-dir', stateDir, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ rows: 30, contacts: 29, rejected: 1, rejected_by_reason: { phone_country_mismatch: 1 } });
  });
});
