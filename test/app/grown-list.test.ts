/**
 * A list that grew since the last run read it (issue 36): rows appended to its last file, or new files
 * of its glob, are read from where it grew (the rows read before are never parsed again, the new ones
 * deduped against them); a list changed anywhere else is read whole. Outcomes are asserted: what the
 * simulator received, the report, rejects.csv, and whether the earlier rows were streamed again.
 */
import { appendFile, mkdir, readdir, readFile, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { campaign, parseCsv, phoneOf, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';
import { cliEnv, simulators, startsTo } from '../helpers/sim-runs.js';
import { countReadsOf, stopCountingReads } from '../helpers/read-count.js';

const ROWS = 30;
/** Contacts the first run's journal keeps; the others are left for the continuing run. */
const DONE = 20;

const sims = simulators(5);
let c: Campaign;

afterEach(async () => {
  stopCountingReads();
  await sims.closeAll();
  await c?.cleanup();
});

const simulator = (): Promise<RunningSimulator> => sims.start();
const env = (sim: RunningSimulator) => cliEnv(sim, c.stateDir);

/** A row of the list for `phone`, written as the campaign writes its rows (national form). */
function rowOf(phone: string, name: string): string {
  return `${national(phone)};${name};BF-${name}`;
}

/** The phone cell the campaign writes: (011) 97xxx-xxxx. */
function national(phone: string): string {
  return `(011) ${phone.slice(5, 10)}-${phone.slice(10)}`;
}

const jobDir = () => path.join(c.stateDir, 'cli-test');

async function rejects(): Promise<Array<Record<string, string>>> {
  return parseCsv(await readFile(path.join(jobDir(), 'rejects.csv'), 'utf8'));
}

async function reportPhones(): Promise<string[]> {
  return parseCsv(await readFile(path.join(jobDir(), 'report.csv'), 'utf8')).map((r) => r.phone ?? '');
}

/**
 * A job whose last run read the whole list (and kept its listing) but whose journal holds only the
 * first DONE contacts, as a run stopped after them leaves it (its snapshot gone).
 */
async function stoppedAfter(): Promise<void> {
  const first = await simulator();
  expect((await cli(['run', c.jobFile, '--no-progress'], env(first))).code).toBe(0);
  const journal = path.join(jobDir(), 'checkpoint.jsonl');
  const keep = new Set(c.phones.slice(0, DONE));
  const lines = (await readFile(journal, 'utf8')).trimEnd().split('\n');
  const kept = lines.filter((line) => {
    const phone = (JSON.parse(line) as { phone?: string }).phone;
    return phone === undefined || keep.has(phone);
  });
  await writeFile(journal, `${kept.join('\n')}\n`);
  for (const f of await readdir(jobDir())) if (f.includes('snapshot')) await rm(path.join(jobDir(), f));
}

describe('a list that grew since the last run read it', () => {
  it('reads only the appended rows: sends the contacts left and the new one, rejects a new row whose phone an earlier row has', async () => {
    c = await campaign({ rows: ROWS, bad: 2, emptyCoupon: 1 });
    const list = path.join(c.dir, 'contacts.csv');
    await stoppedAfter();
    // A new contact, a row with a settled contact's phone, one with a pending contact's phone, and one unusable row.
    await appendFile(list, `${[rowOf(phoneOf(90), 'New'), rowOf(phoneOf(3), 'Again'), rowOf(phoneOf(25), 'Twice'), '99;Bad;X'].join('\n')}\n`);
    const reads = countReadsOf(list);
    const sim = await simulator();
    const run = await cli(['run', c.jobFile, '--json'], env(sim));
    expect(reads()).toBe(0);
    expect(run.code).toBe(0);
    expect(startsTo(sim).sort()).toEqual([...c.phones.slice(DONE), phoneOf(90)].sort());
    expect(JSON.parse(run.stdout).this_run).toMatchObject({ sent: ROWS - DONE + 1, already_done: DONE });
    // Lines: header 1, 30 good rows 2–31, 2 bad 32–33, the empty coupon 34, then the new rows 35–38.
    const rejected = await rejects();
    expect(rejected.filter((r) => r.reason === 'duplicate').map((r) => [r.line, r.detail])).toEqual([
      ['36', `same phone as ${list} line 5`],
      ['37', `same phone as ${list} line 27`],
    ]);
    expect(rejected.map((r) => r.reason).sort()).toEqual(['duplicate', 'duplicate', 'missing_variable:coupon', 'phone_invalid', 'phone_invalid', 'phone_invalid']);
    expect(await reportPhones()).toEqual([...c.phones, phoneOf(90)]);

    // The next night: more rows appended; the run reads only those, and nobody is messaged twice.
    await appendFile(list, `${rowOf(phoneOf(91), 'Newer')}\n`);
    const next = await cli(['run', c.jobFile, '--json'], env(sim));
    expect(reads()).toBe(0);
    expect(next.code).toBe(0);
    expect(startsTo(sim).sort()).toEqual([...c.phones.slice(DONE), phoneOf(90), phoneOf(91)].sort());
    expect(await reportPhones()).toEqual([...c.phones, phoneOf(90), phoneOf(91)]);
  });

  it('reads the list whole when a row before the end was edited, and sends the edited row\'s new phone', async () => {
    c = await campaign({ rows: ROWS, bad: 2, emptyCoupon: 1 });
    const list = path.join(c.dir, 'contacts.csv');
    await stoppedAfter();
    // Row 3 (settled) now has another person's phone, of the same length; then a row is appended.
    const text = await readFile(list, 'utf8');
    const edited = text.replace(national(phoneOf(3)), national(phoneOf(93)));
    expect(edited).not.toBe(text);
    await writeFile(list, `${edited}${rowOf(phoneOf(90), 'New')}\n`);
    const reads = countReadsOf(list);
    const sim = await simulator();
    const run = await cli(['run', c.jobFile, '--json'], env(sim));
    expect(reads()).toBe(1);
    expect(run.code).toBe(0);
    expect(startsTo(sim).sort()).toEqual([...c.phones.slice(DONE), phoneOf(90), phoneOf(93)].sort());
  });

  it('reads a truncated list whole: the contact cut off is not sent', async () => {
    c = await campaign({ rows: ROWS });
    const list = path.join(c.dir, 'contacts.csv');
    await stoppedAfter();
    const lines = (await readFile(list, 'utf8')).trimEnd().split('\n');
    await writeFile(list, `${lines.slice(0, -1).join('\n')}\n`);
    const reads = countReadsOf(list);
    const sim = await simulator();
    const run = await cli(['run', c.jobFile, '--json'], env(sim));
    expect(reads()).toBe(1);
    expect(run.code).toBe(0);
    expect(startsTo(sim).sort()).toEqual(c.phones.slice(DONE, -1).sort());
    expect(await reportPhones()).toEqual(c.phones.slice(0, -1));
  });

  it('reads a list replaced by one of the same length whole, and sends who it holds now', async () => {
    c = await campaign({ rows: ROWS });
    const list = path.join(c.dir, 'contacts.csv');
    await stoppedAfter();
    const text = await readFile(list, 'utf8');
    const replaced = text.replace(national(phoneOf(25)), national(phoneOf(95)));
    expect(replaced).not.toBe(text);
    expect(replaced.length).toBe(text.length);
    await writeFile(`${list}.new`, replaced);
    await utimes(`${list}.new`, new Date('2026-11-02T10:00:00Z'), new Date('2026-11-02T10:00:00Z'));
    await rename(`${list}.new`, list);
    const reads = countReadsOf(list);
    const sim = await simulator();
    const run = await cli(['run', c.jobFile, '--json'], env(sim));
    expect(reads()).toBe(1);
    expect(run.code).toBe(0);
    expect(startsTo(sim).sort()).toEqual([...c.phones.slice(DONE).filter((p) => p !== phoneOf(25)), phoneOf(95)].sort());
  });

  it('reads only a new file of its glob: the earlier file is not read again, a new row with an earlier phone is a duplicate', async () => {
    c = await campaign({ rows: ROWS, job: { contacts: 'lists/*.csv' } });
    await mkdir(path.join(c.dir, 'lists'));
    const first = path.join(c.dir, 'lists', '2026-11-01.csv');
    await rename(path.join(c.dir, 'contacts.csv'), first);
    const sim = await simulator();
    expect((await cli(['run', c.jobFile, '--no-progress'], env(sim))).code).toBe(0);
    expect(startsTo(sim)).toHaveLength(ROWS);
    await writeFile(path.join(c.dir, 'lists', '2026-11-02.csv'), `Phone;First name;coupon\n${[rowOf(phoneOf(90), 'New'), rowOf(phoneOf(3), 'Again'), rowOf(phoneOf(91), 'Newer')].join('\n')}\n`);
    const reads = countReadsOf(first);
    const run = await cli(['run', c.jobFile, '--json'], env(sim));
    expect(reads()).toBe(0);
    expect(run.code).toBe(0);
    expect(startsTo(sim).slice(ROWS).sort()).toEqual([phoneOf(90), phoneOf(91)].sort());
    const rejected = await rejects();
    expect(rejected.map((r) => [r.reason, r.line, r.detail])).toEqual([['duplicate', '3', `same phone as ${first} line 5`]]);
    expect(await reportPhones()).toEqual([...c.phones, phoneOf(90), phoneOf(91)]);
  });
});
