/**
 * A run going on from an older version's journal (issue 36): no snapshot, no listing, so the whole
 * list is read again, and the rows of settled contacts written as their own E.164 are taken without
 * the phone library's parse (contacts/known-phone.ts). The run must come out as a read that parses
 * every row: the first run read this same list with no contact known, and its rejects.csv and the
 * settled contacts' report rows are what the continuing run writes, byte for byte; only the contacts
 * left are sent, the suppressed one not.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { campaign, parseCsv, phoneOf, type Campaign } from '../helpers/campaign.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { cli } from '../helpers/in-process.js';
import { cliEnv, simulators, startsTo } from '../helpers/sim-runs.js';


const sims = simulators(7);
let c: Campaign;

afterEach(async () => {
  await sims.closeAll();
  await c?.cleanup();
});

const simulator = (): Promise<RunningSimulator> => sims.start();
const env = (sim: RunningSimulator) => cliEnv(sim, c.stateDir);

const jobDir = () => path.join(c.stateDir, 'cli-test');
const national = (phone: string) => `(011) ${phone.slice(5, 10)}-${phone.slice(10)}`;
const spaced = (phone: string) => `+55 11 ${phone.slice(5, 10)} ${phone.slice(10)}`;

/** Contacts 0–11 settled by the first run's journal as kept; 12–15 left. */
const SETTLED = 12;
const CONTACTS = 16;

/**
 * The list: most settled rows written as their E.164 (one with spaces around it), others in national
 * form or spaced inside; duplicates of a settled and of a pending contact, written otherwise; rows
 * that are not numbers; an old 8-digit mobile.
 */
function listText(): string {
  const rows: string[] = ['Phone;First name;coupon'];
  for (let i = 0; i < CONTACTS; i++) {
    const phone = phoneOf(i);
    const cell = i === 3 ? national(phone) : i === 5 ? spaced(phone) : i === 7 ? ` ${phone} ` : i === 13 ? national(phone) : phone;
    rows.push(`${cell};Ana ${i};BF${i}`);
    if (i === 4) rows.push(`${national(phoneOf(1))};Again;BF-a`); // a duplicate of settled contact 1
    if (i === 8) rows.push(`${phoneOf(2)};Twice;BF-t`); // a duplicate of settled contact 2, as its E.164
    if (i === 9) rows.push('12345;Bad;X');
    if (i === 10) rows.push(`+551191000${String(i).padStart(3, '0')};Old;BF-o`); // 8 digits after the area code: invalid
    if (i === 13) rows.push(`${phoneOf(14)};Early;BF-e`); // pending 14, first seen here
  }
  return `${rows.join('\n')}\n`;
}

/** The journal as an older version leaves it: the settled contacts' events only, no snapshot, no listing. */
async function olderJournal(keep: ReadonlySet<string>): Promise<void> {
  const journal = path.join(jobDir(), 'checkpoint.jsonl');
  const lines = (await readFile(journal, 'utf8')).trimEnd().split('\n');
  const kept = lines.filter((line) => {
    const phone = (JSON.parse(line) as { phone?: string }).phone;
    return phone === undefined || keep.has(phone);
  });
  await writeFile(journal, `${kept.join('\n')}\n`);
  for (const f of await readdir(jobDir())) if (f.includes('snapshot') || f.startsWith('listing')) await rm(path.join(jobDir(), f));
}

/** The continuing run in this process (the list read in this thread), and by the built CLI (the list read ahead in a worker thread while the journal is folded). */
const continuing: Array<[string, (args: string[], options: { env: Record<string, string> }) => Promise<CliResult>]> = [
  ['in process', cli],
  ['by the built CLI, its list read in a worker', runCli],
];

describe.each(continuing)('a run going on from an older version\'s journal, the whole list read again (%s)', (_how, continueRun) => {
  it('writes the rejects and the settled rows of the report as a read that parses every row, and sends only the contacts left, not a suppressed one', async () => {
    c = await campaign({ rows: 0, job: { limits: { max_reject_ratio: 0.5 } } });
    await writeFile(path.join(c.dir, 'contacts.csv'), listText());
    const first = await simulator();
    expect((await cli(['run', c.jobFile, '--no-progress'], env(first))).code).toBe(0);
    expect(startsTo(first)).toHaveLength(CONTACTS);
    const rejectsBefore = await readFile(path.join(jobDir(), 'rejects.csv'), 'utf8');
    const reportBefore = await readFile(path.join(jobDir(), 'report.csv'), 'utf8');
    const settled = new Set(Array.from({ length: SETTLED }, (_, i) => phoneOf(i)));
    await olderJournal(settled);
    // A settled contact and a pending one said stop since.
    const suppress = await cli(['suppress', 'add', phoneOf(6), phoneOf(15), '--job', c.jobFile], { env: { OUTREACH_STATE_DIR: c.stateDir } });
    expect(suppress.code).toBe(0);

    const sim = await simulator();
    const run = await continueRun(['run', c.jobFile, '--json'], env(sim));
    expect(run.code).toBe(0);
    expect(startsTo(sim).sort()).toEqual([phoneOf(12), phoneOf(13), phoneOf(14)].sort());
    expect(JSON.parse(run.stdout).this_run).toMatchObject({ sent: 3, already_done: SETTLED });

    expect(await readFile(path.join(jobDir(), 'rejects.csv'), 'utf8')).toBe(rejectsBefore);
    expect(parseCsv(rejectsBefore).map((r) => [r.line, r.reason])).toEqual([
      ['7', 'duplicate'],
      ['12', 'duplicate'],
      ['14', 'phone_invalid'],
      ['16', 'phone_invalid'],
      ['21', 'duplicate'], // contact 14's own row, after the row that wrote its phone first
    ]);
    const report = await readFile(path.join(jobDir(), 'report.csv'), 'utf8');
    const rowsOf = (text: string) => text.trimEnd().split('\n');
    const [header, ...after] = rowsOf(report);
    const [headerBefore, ...before] = rowsOf(reportBefore);
    expect(header).toBe(headerBefore);
    // The settled contacts' rows, byte for byte; the others were sent (or skipped) again.
    expect(after.slice(0, SETTLED)).toEqual(before.slice(0, SETTLED));
    const rows = parseCsv(report);
    expect(rows.map((r) => r.phone).sort()).toEqual(Array.from({ length: CONTACTS }, (_, i) => phoneOf(i)).sort());
    const status = new Map(rows.map((r) => [r.phone, r.status]));
    expect([12, 13, 14, 15].map((i) => status.get(phoneOf(i)))).toEqual(['sent', 'sent', 'sent', 'skipped']);
    expect(status.get(phoneOf(6))).toBe('sent'); // settled before it said stop: not sent again, still shown as sent
  });
});
