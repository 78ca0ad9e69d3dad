import { appendFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, parseCsv, phoneOf, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';
import { countReadsOf, stopCountingReads } from '../helpers/read-count.js';

const START = 'POST /chat/conversations/start-whatsapp';
let sim: RunningSimulator;
let c: Campaign;

afterEach(async () => {
  stopCountingReads();
  await sim?.close();
  await c?.cleanup();
});

async function rmSnapshot(dir: string): Promise<void> {
  for (const f of await readdir(dir)) if (f.includes('snapshot')) await rm(path.join(dir, f));
}

function env() {
  return { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
}

describe('run reads the contact list once', () => {
  it('streams the list once to send, and status and report count pending from what that read kept', async () => {
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 40, bad: 2, emptyCoupon: 1 });
    const contacts = path.join(c.dir, 'contacts.csv');

    const reads = countReadsOf(contacts);
    const run = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(run.code).toBe(0);
    expect(reads()).toBe(1);
    expect(sim.state.counters.byEndpoint[START]).toBe(40);

    const status = await cli(['status', c.jobFile, '--json'], env());
    const report = await cli(['report', c.jobFile], env());
    expect(reads()).toBe(1);
    expect(JSON.parse(status.stdout).byStatus).toMatchObject({ sent: 40, pending: 0 });
    expect(report.stdout).toMatch(/40 contacts written/);
  });

  it("keeps every row's source for the report past the listing's first arrays (3,000 contacts), read back from the kept listing alone", async () => {
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 3_000, job: { rate: { per_second: 1_000, concurrency: 64 } } });
    // The report's rows of contacts never reached come from the kept read alone.
    const store = path.join(c.stateDir, 'cli-test');
    expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(0);
    await writeFile(path.join(store, 'checkpoint.jsonl'), (await readFile(path.join(store, 'checkpoint.jsonl'), 'utf8')).split('\n').slice(0, 1).join('\n') + '\n');
    await rmSnapshot(store);
    const reads = countReadsOf(path.join(c.dir, 'contacts.csv'));
    expect((await cli(['report', c.jobFile], env())).code).toBe(0);
    expect(reads()).toBe(0);
    const rows = parseCsv(await readFile(path.join(store, 'report.csv'), 'utf8'));
    expect(rows).toHaveLength(3_000);
    rows.forEach((row, i) => {
      expect(row).toMatchObject({ phone: phoneOf(i), status: 'pending', name: `Ana ${i}`, source_line: String(i + 2), source_file: path.join(c.dir, 'contacts.csv') });
    });
  });

  it('counts settled contacts as already done on a second run without a request, and sends only the new ones', async () => {
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 10 });
    expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(0);
    await appendFile(path.join(c.dir, 'contacts.csv'), `(011) ${phoneOf(60).slice(5, 10)}-${phoneOf(60).slice(10)};New;BF60\n`);
    const again = await cli(['run', c.jobFile, '--json'], env());
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).this_run).toMatchObject({ sent: 1, already_done: 10 });
    expect(sim.state.counters.byEndpoint[START]).toBe(11);
  });

  it('counts rows added to the list since the run as pending (the kept read is of the list as it was)', async () => {
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 10 });
    expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(0);
    await appendFile(path.join(c.dir, 'contacts.csv'), `(011) ${phoneOf(50).slice(5, 10)}-${phoneOf(50).slice(10)};New;BF50\n`);

    const status = await cli(['status', c.jobFile, '--json'], env());
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout).byStatus).toMatchObject({ sent: 10, pending: 1 });
    // Read whole this time, and kept: the next status counts the same without reading it.
    const reads = countReadsOf(path.join(c.dir, 'contacts.csv'));
    expect(JSON.parse((await cli(['status', c.jobFile, '--json'], env())).stdout).byStatus.pending).toBe(1);
    expect(reads()).toBe(0);
  });

  it('stops taking contacts once the rows read so far are rejected too often, and says so (exit 3)', async () => {
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 1_100, job: { rate: { per_second: 1000 } } });
    // A second file of another shape: no row of it has a usable phone.
    const second = ['Phone;First name;coupon', ...Array.from({ length: 3_000 }, (_, i) => `12${i};Bad ${i};X`)].join('\n');
    await writeFile(path.join(c.dir, 'more.csv'), `${second}\n`);
    const job = JSON.parse(await readFile(c.jobFile, 'utf8')) as Record<string, unknown>;
    await writeFile(c.jobFile, JSON.stringify({ ...job, contacts: ['contacts.csv', 'more.csv'] }));

    const run = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/stopped: \d+ of \d+ rows rejected .* more than limits\.max_reject_ratio 0\.2/);
    expect(sim.state.counters.byEndpoint[START]).toBe(1_100);
    const rejects = parseCsv(await readFile(path.join(c.stateDir, 'cli-test', 'rejects.csv'), 'utf8'));
    expect(rejects).toHaveLength(3_000);
  });

  it('refuses a list whose first rows are mostly rejected before sending anything (exit 2)', async () => {
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 5, bad: 20 });
    const run = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/20 of 25 rows rejected \(80\.0%\)/);
    expect(sim.state.counters.byEndpoint[START] ?? 0).toBe(0);
  });

  it('stops at a row the loader cannot read past the rows read ahead: the contacts before it sent, the report written, earlier rejects kept, and resume goes on (exit 3)', async () => {
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 2_500, bad: 1, job: { rate: { per_second: 1_000, concurrency: 64 } } });
    const contacts = path.join(c.dir, 'contacts.csv');
    expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(0);
    const rejectsFile = path.join(c.stateDir, 'cli-test', 'rejects.csv');
    expect(parseCsv(await readFile(rejectsFile, 'utf8')).map((r) => r.line)).toEqual(['2502']);

    // A new campaign on the same list, whose line 1,500 opens a quote that never closes (the frequency cap
    // off: this test is about the list's read, not about holding back the contacts the first job messaged).
    const first = JSON.parse(await readFile(c.jobFile, 'utf8')) as { limits?: Record<string, unknown> };
    await writeFile(c.jobFile, JSON.stringify({ ...first, name: 'second', limits: { ...first.limits, min_hours_between_messages: 0, repeat_message: true } }));
    const good = await readFile(contacts, 'utf8');
    const lines = good.split('\n');
    lines[1_499] = `"${lines[1_499]}`;
    await writeFile(contacts, lines.join('\n'));
    const secondRejects = path.join(c.stateDir, 'second', 'rejects.csv');
    await mkdir(path.dirname(secondRejects), { recursive: true });
    await writeFile(secondRejects, await readFile(rejectsFile));
    const before = sim.state.counters.byEndpoint[START] ?? 0;

    const run = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/stopped: .*contacts\.csv.*the contacts before it were handled and are in the report: fix the file, then `outreach resume`/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(`${run.stdout}${run.stderr}`).toMatch(/the list was read up to line 1499 of .*contacts\.csv only: the report and the pending count leave out the rows after it/);
    const sentBefore = (sim.state.counters.byEndpoint[START] ?? 0) - before;
    expect(sentBefore).toBe(1_498);
    const report = parseCsv(await readFile(path.join(c.stateDir, 'second', 'report.csv'), 'utf8'));
    expect(report.filter((r) => r.status === 'sent')).toHaveLength(1_498);
    // The row after the stop that an earlier read rejected stays in rejects.csv.
    expect(parseCsv(await readFile(secondRejects, 'utf8')).map((r) => r.line)).toEqual(['2502']);
    expect(run.stdout).toMatch(/rejects: .*rejects\.csv \(1 row\)/);

    await writeFile(contacts, good);
    expect((await cli(['resume', c.jobFile, '--no-progress'], env())).code).toBe(0);
    expect((sim.state.counters.byEndpoint[START] ?? 0) - before).toBe(2_500);
  });

  it('refuses, before sending, a JSON list whose named column is in none of the first 1,000 entries (exit 2)', async () => {
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 1 });
    const entries = Array.from({ length: 1_200 }, (_, i) => ({ Phone: phoneOf(i), 'First name': `Ana ${i}`, coupon: `BF${i}` }));
    await writeFile(path.join(c.dir, 'contacts.json'), JSON.stringify(entries));
    const job = JSON.parse(await readFile(c.jobFile, 'utf8')) as { columns: Record<string, string> };
    await writeFile(c.jobFile, JSON.stringify({ ...job, contacts: 'contacts.json', columns: { ...job.columns, language: 'lang' } }));
    const run = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/contacts\.json: none of the first 1,000 entries has the key "lang"/);
    expect(sim.state.counters.byEndpoint[START] ?? 0).toBe(0);
  });

  it("report --columns streams the rows in the list's order with their cells, then the contacts the list no longer has", async () => {
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 5 });
    expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(0);
    const contacts = path.join(c.dir, 'contacts.csv');
    const lines = (await readFile(contacts, 'utf8')).trimEnd().split('\n');
    // Row 2 leaves the list, a new row comes first.
    const fresh = `(011) ${phoneOf(40).slice(5, 10)}-${phoneOf(40).slice(10)};New;BF40`;
    await writeFile(contacts, [lines[0], fresh, ...lines.slice(1).filter((_, i) => i !== 2)].join('\n') + '\n');
    const out = path.join(c.dir, 'columns.csv');
    expect((await cli(['report', c.jobFile, '--columns', '--out', out], env())).code).toBe(0);
    const rows = parseCsv(await readFile(out, 'utf8'));
    expect(rows.map((r) => [r.phone, r.status, r.coupon])).toEqual([
      [phoneOf(40), 'pending', 'BF40'],
      [phoneOf(0), 'sent', 'BF0'],
      [phoneOf(1), 'sent', 'BF1'],
      [phoneOf(3), 'sent', 'BF3'],
      [phoneOf(4), 'sent', 'BF4'],
      [phoneOf(2), 'sent', ''],
    ]);
  });
});
