/**
 * A database role that lacks a permission is told which one and the grant that gives it (the grants
 * docs/beyond-one-machine.md shows), never "when the database is back": nothing will change until
 * someone grants it. End to end through the built CLI, against the test cluster.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { schemaUrl } from '../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');

let admin: pg.Client;
let sim: RunningSimulator | undefined;
let c: Campaign | undefined;

beforeAll(async () => {
  if (!pgUrl) return;
  admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
});
afterEach(async () => {
  await sim?.close();
  await c?.cleanup();
});

/** A schema migrated by the owner, and the URL of `role` on it (the cluster trusts every connection). */
async function storeFor(role: string, grants: (schema: string) => string[]): Promise<{ url: string; schema: string }> {
  const owner = schemaUrl(pgUrl);
  const schema = /schema=(\w+)/.exec(owner)?.[1] ?? '';
  const migrated = await runCli(['store', 'migrate'], { env: { OUTREACH_STORE: owner } });
  expect(migrated.code, migrated.stderr).toBe(0);
  const name = `${role}_${schema}`;
  await admin.query(`CREATE ROLE ${name} LOGIN`);
  for (const sql of grants(schema)) await admin.query(sql.replaceAll('$role', name));
  return { url: owner.replace(/^postgres:\/\/[^@]+@/, `postgres://${name}@`), schema };
}

function theSentence(r: CliResult): string {
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(r.stderr).not.toMatch(/when the database is back|that the server is up/);
  return lines[0] ?? '';
}

describe.skipIf(!pgUrl)('a role that may not do what a runner does', () => {
  it('read-only: a run is stopped before any send by one sentence naming the table, the privileges it lacks and the grants (exit 3)', async () => {
    const { url, schema } = await storeFor('reader', (s) => [`GRANT USAGE ON SCHEMA ${s} TO $role`, `GRANT SELECT ON ALL TABLES IN SCHEMA ${s} TO $role`]);
    const role = `reader_${schema}`;
    sim = await startSimulator({ seed: 2 });
    c = await campaign({ rows: 3 });
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STORE: url, OUTREACH_STATE_DIR: c.stateDir };
    const run = await runCli(['run', c.jobFile, '--no-progress'], { env });
    expect(run.code).toBe(3);
    const grants = `as the owner of the store's tables, run GRANT USAGE ON SCHEMA ${schema} TO ${role}; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}; GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}; then`;
    const sentence = theSentence(run);
    expect(sentence).toMatch(new RegExp(`the database role ${role} may not read and write table ${schema}\\.\\w+ \\(it needs SELECT, INSERT, UPDATE and DELETE on the store's tables\\): permission denied \\(42501\\)`));
    expect(sentence).toContain(grants);
    expect(sim.state.requests.filter((q) => q.method === 'POST')).toEqual([]);

    // A write through the lists' path (the plan's rejected rows) says the same.
    const plan = await runCli(['plan', c.jobFile], { env });
    expect(plan.code).not.toBe(0);
    expect(theSentence(plan)).toContain(grants);
  });

  it('without USAGE on the schema: names it and the same grants (exit 3)', async () => {
    const { url, schema } = await storeFor('outsider', () => []);
    c = await campaign({ rows: 1 });
    const status = await runCli(['status', c.jobFile], { env: { OUTREACH_STORE: url, OUTREACH_STATE_DIR: c.stateDir } });
    expect(status.code).toBe(3);
    const sentence = theSentence(status);
    expect(sentence).toMatch(new RegExp(`the database role outsider_${schema} may not use schema ${schema} \\(it needs USAGE on it\\): permission denied \\(42501\\)`));
    expect(sentence).toContain(`GRANT USAGE ON SCHEMA ${schema} TO outsider_${schema};`);
  });
});
