/**
 * `outreach store migrate` and `outreach store import` against the test cluster, and a store that cannot
 * be reached, which needs no cluster: the first migrate, the first import and the unreachable store end to
 * end through the built CLI, each in a process of its own; the commands after them, and the demo that
 * makes the file store imported, through the same command line in this process. The cluster trusts every
 * connection, so a password put in its URL is never checked: it is there to be looked for in every
 * output and file.
 */
import { readdir, readFile, mkdtemp, rm, writeFile, cp, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS } from '../../src/checkpoint/pg/migrations.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { cli } from '../helpers/in-process.js';
import { DEMO_WAIT_MS, sharedDemo } from '../helpers/shared-demo.js';
import { schemaUrl } from '../helpers/pg-cluster.js';
import { unpack } from '../../src/checkpoint/pg/blob.js';

const pgUrl = inject('pgUrl');
const PASSWORD = 'Sekr1t-pw-7f3a';

/** The test cluster's URL with a password in it (the cluster trusts every connection, so any password is accepted). */
function withPassword(url: string): string {
  return url.replace(/^postgres:\/\/([^@:/]+)@/, `postgres://$1:${PASSWORD}@`);
}

/** Every file under `dir`, as text. */
async function everyFile(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(file, await readFile(file, 'latin1'));
  }
  return out;
}

function expectNoPassword(results: CliResult[]): void {
  for (const r of results) {
    expect(r.stdout).not.toContain(PASSWORD);
    expect(r.stderr).not.toContain(PASSWORD);
  }
}

describe('a store that cannot be used', () => {
  it('is refused in one sentence naming its host, port and database, never its password, exit 3', async () => {
    const r = await runCli(['store', 'migrate'], { env: { OUTREACH_STORE: `postgres://runner:${PASSWORD}@127.0.0.1:1/campaigns` } });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^\S+ outreach: the store \(database campaigns on 127\.0\.0\.1:1\) cannot be used: the connection was refused/);
    expectNoPassword([r]);
  });

  it('of another scheme is refused before anything is done, exit 2', async () => {
    const r = await cli(['store', 'migrate'], { env: { OUTREACH_STORE: `mysql://root:${PASSWORD}@db/x` } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^\S+ outreach: OUTREACH_STORE: "mysql:\/\/" is not a store outreach can use; give a PostgreSQL URL/);
    expectNoPassword([r]);
  });

  it('`store migrate` of a state folder has nothing to do, and says so (exit 2)', async () => {
    const r = await cli(['store', 'migrate'], { env: { OUTREACH_STORE: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^\S+ outreach: the state folder needs no migration/);
  });
});

describe.skipIf(!pgUrl)('outreach store, against a database', () => {
  let dir: string;
  let stateDir: string;
  let client: pg.Client;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-store-'));
    stateDir = path.join(dir, 'state');
    // A real file store: the demo's run (journal, listing, rejects, suppression list, ledger, windows, webhook
    // events); the run's one demo, copied, since this test writes into it.
    const demo = await sharedDemo();
    expect(demo.code).toBe(0);
    await cp(demo.stateDir, stateDir, { recursive: true });
    await writeFile(path.join(stateDir, 'sync.json'), `${JSON.stringify({ v: 1, updated_at: '2026-03-01T00:00:00.000Z', conversations: { '17': 42 }, last_run: '2026-03-01T00:05:00.000Z' })}\n`);
    client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
  }, DEMO_WAIT_MS);

  afterAll(async () => {
    await client?.end();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('`store migrate` applies the migrations once, then finds the store up to date', async () => {
    const url = withPassword(schemaUrl(pgUrl));
    const schema = /schema=(\w+)/.exec(url)?.[1] ?? '';
    const first = await runCli(['store', 'migrate'], { env: { OUTREACH_STORE: url } });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^store .*: applied migrations? 1 \\(the store\\)(, \\d+ \\([^)]*\\))*; the schema \\w+ is at version ${LATEST_VERSION}\n$`));
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`);
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));

    const again = await cli(['store', 'migrate'], { env: { OUTREACH_STORE: url } });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`: up to date \\(version ${LATEST_VERSION}\\)\n$`));
    expectNoPassword([first, again]);
    expect(first.stdout).toContain(':***@');

    // A runners' role that may not create anything finds the store up to date, and uses it.
    const role = `runner_${schema}`;
    await client.query(`CREATE ROLE ${role} LOGIN`);
    await client.query(`GRANT USAGE ON SCHEMA "${schema}" TO ${role}`);
    await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "${schema}" TO ${role}`);
    const asRunner = url.replace(/^postgres:\/\/[^@]+@/, `postgres://${role}:${PASSWORD}@`);
    const runner = await cli(['store', 'migrate'], { env: { OUTREACH_STORE: asRunner } });
    expect(runner.stderr).toBe('');
    expect(runner.stdout).toMatch(new RegExp(`: up to date \\(version ${LATEST_VERSION}\\)\n$`));
    expect(runner.code).toBe(0);
  });

  it('`store import` moves a file store into the database; a second import changes nothing; a job with other content is refused, naming it', async () => {
    const url = withPassword(schemaUrl(pgUrl));
    const s = `"${/schema=(\w+)/.exec(url)?.[1] ?? ''}"`;
    const journal = (await readFile(path.join(stateDir, 'demo', 'checkpoint.jsonl'), 'utf8')).split('\n').filter((l) => l.trim() !== '');
    const counts = async () => {
      const q = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]?.n);
      return {
        jobs: await q(`SELECT count(*) AS n FROM ${s}.jobs`),
        journal: await q(`SELECT count(*) AS n FROM ${s}.journal WHERE job = 'demo'`),
        listings: await q(`SELECT count(*) AS n FROM ${s}.listings`),
        rejects: await q(`SELECT coalesce(sum(jsonb_array_length(rows)), 0) AS n FROM ${s}.plan_rejects`),
        suppression: await q(`SELECT count(*) AS n FROM ${s}.suppression_changes`),
        ledger: await q(`SELECT count(*) AS n FROM ${s}.ledger_ops`),
        clients: await q(`SELECT count(*) AS n FROM ${s}.window_clients`),
        phones: await q(`SELECT count(*) AS n FROM ${s}.window_phones`),
        events: await q(`SELECT count(*) AS n FROM ${s}.events`),
        sync: await q(`SELECT count(*) AS n FROM ${s}.sync_book`),
        notes: await q(`SELECT count(*) AS n FROM ${s}.job_notes WHERE job = 'demo'`),
      };
    };
    // The job's notes (when track last read it, …) go with it.
    const notesFile = path.join(stateDir, 'demo', 'notes.json');
    const notes = { ...(JSON.parse(await readFile(notesFile, 'utf8').catch(() => '{}')) as Record<string, unknown>), imported_note: { at: '2026-03-01T00:00:00.000Z' } };
    await writeFile(notesFile, JSON.stringify(notes));

    // A reply of a pool's contact: its window names the number it came to (window.json's phone_channels).
    const windowFile = path.join(stateDir, 'window.json');
    const windows = JSON.parse(await readFile(windowFile, 'utf8')) as { phones: Record<string, string>; phone_channels?: Record<string, number> };
    const replied = Object.keys(windows.phones)[0] ?? '';
    await writeFile(windowFile, JSON.stringify({ ...windows, phone_channels: { ...windows.phone_channels, [replied]: 14 } }));

    const first = await runCli(['store', 'import', stateDir], { env: { OUTREACH_STORE: url } });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`job demo: imported (${journal.length} journal records`);
    const after = await counts();
    expect(after).toMatchObject({ jobs: 1, journal: journal.length, listings: 1, sync: 1, notes: Object.keys(notes).length });
    const note = await client.query<{ value: unknown }>(`SELECT value FROM ${s}.job_notes WHERE job = 'demo' AND key = 'imported_note'`);
    expect(note.rows[0]?.value).toEqual({ at: '2026-03-01T00:00:00.000Z' });
    expect(after.rejects).toBe(30);
    const number = await client.query<{ channel_id: number | null }>(`SELECT channel_id FROM ${s}.window_phones WHERE phone = $1`, [replied]);
    expect(number.rows[0]?.channel_id).toBe(14);
    for (const part of ['suppression', 'ledger', 'clients', 'phones', 'events'] as const) expect(after[part], part).toBeGreaterThan(0);
    // The journal keeps the file's lines, in order, the header first.
    const { rows } = await client.query<{ event: string; phone: string | null }>(`SELECT event, phone FROM ${s}.journal WHERE job = 'demo' ORDER BY seq`);
    expect(rows.map((r) => r.event)).toEqual(journal);
    expect(rows[0]?.phone).toBeNull();
    // The listing is the file backend's bytes (packed as the database keeps every listing); the sync bookmark the file's.
    const listing = await client.query<{ data: Buffer }>(`SELECT data FROM ${s}.listings WHERE job = 'demo'`);
    const packed = listing.rows[0]?.data;
    expect(packed && (await unpack(packed))?.equals(await readFile(path.join(stateDir, 'demo', 'listing.bin')))).toBe(true);
    const book = await client.query<{ book: unknown }>(`SELECT book FROM ${s}.sync_book`);
    expect(book.rows[0]?.book).toMatchObject({ updated_at: '2026-03-01T00:00:00.000Z', conversations: { '17': 42 } });

    const again = await cli(['store', 'import', stateDir], { env: { OUTREACH_STORE: url } });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('job demo: already there');
    expect(again.stdout).not.toMatch(/[1-9]\d* imported/);
    expect(await counts()).toEqual(after);

    // Another folder whose job "demo" has another journal: refused by name; its other job and lists are imported.
    const other = path.join(dir, 'other');
    await cp(stateDir, other, { recursive: true });
    await writeFile(path.join(other, 'demo', 'checkpoint.jsonl'), `${journal.slice(0, -1).join('\n')}\n`);
    await cp(path.join(stateDir, 'demo'), path.join(other, 'demo-copy'), { recursive: true });
    await writeFile(path.join(other, 'suppressions.jsonl'), `{"v":1,"op":"add","phone":"+5511900000001","reason":"by hand","source":"manual","at":"2026-03-02T00:00:00.000Z"}\n`, { flag: 'a' });
    const refused = await cli(['store', 'import', other], { env: { OUTREACH_STORE: url } });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain('job demo-copy: imported');
    expect(refused.stdout).toMatch(/job demo: refused: /);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^\S+ outreach: job demo is already in the store with other content or held by a run \(see above\), so it was left out; keep running it from the folder, or import the folder into another schema/);
    const last = await counts();
    expect(last.journal).toBe(journal.length);
    expect(last.jobs).toBe(2);
    expect(last.suppression).toBe(after.suppression + 1);

    expectNoPassword([first, again, refused]);
    for (const [file, text] of await everyFile(dir)) expect(text.includes(PASSWORD), file).toBe(false);
    expect((await stat(stateDir)).isDirectory()).toBe(true);
  });

  it('`store import` of a folder that is not a state folder says so (exit 2)', async () => {
    const r = await cli(['store', 'import', path.join(dir, 'nowhere'), '--store', schemaUrl(pgUrl)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^\S+ outreach: .*nowhere is not a state folder/);
  });
});
