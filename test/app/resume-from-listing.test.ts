import { appendFile, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { campaign, parseCsv, phoneOf, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';
import { cliEnv, simulators, startsTo } from '../helpers/sim-runs.js';
import { countReadsOf, stopCountingReads } from '../helpers/read-count.js';

/** The list's modification time, set again after an edit of the same size: the listing still takes it for the list it read. */
const LIST_TIME = new Date('2026-11-01T10:00:00Z');
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

/**
 * A job whose last run read the whole list (and kept its listing and rejects) but whose journal
 * holds only the first DONE contacts, the way a run stopped after them leaves it: its snapshot gone,
 * and, with `attemptOf`, that contact's request journaled with no answer (the process killed while it
 * was in flight).
 */
async function stoppedAfter(options: { attemptOf?: number } = {}): Promise<{ list: string; journal: string }> {
  c = await campaign({ rows: ROWS, bad: 2, emptyCoupon: 1 });
  const list = path.join(c.dir, 'contacts.csv');
  await utimes(list, LIST_TIME, LIST_TIME);
  const first = await simulator();
  expect((await cli(['run', c.jobFile, '--no-progress'], env(first))).code).toBe(0);
  const store = path.join(c.stateDir, 'cli-test');
  const journal = path.join(store, 'checkpoint.jsonl');
  const keep = new Set(c.phones.slice(0, DONE));
  const lines = (await readFile(journal, 'utf8')).trimEnd().split('\n');
  const kept = lines.filter((line) => {
    const phone = (JSON.parse(line) as { phone?: string }).phone;
    return phone === undefined || keep.has(phone);
  });
  const inFlight = options.attemptOf === undefined ? [] : lines.filter((line) => line.includes(`"t":"attempt"`) && line.includes(phoneOf(options.attemptOf ?? 0)));
  await writeFile(journal, `${[...kept, ...inFlight].join('\n')}\n`);
  for (const f of await readdir(store)) if (f.includes('snapshot')) await rm(path.join(store, f));
  return { list, journal };
}

describe('a run going on from the listing of the same list', () => {
  it('sends exactly the contacts left without parsing the settled rows (one made unreadable is never seen)', async () => {
    const { list } = await stoppedAfter();
    // Row 3 (line 5), settled, gets a quote that never closes: a whole read would stop at it. Same size, same time.
    const text = await readFile(list, 'utf8');
    await writeFile(list, text.replace(';Ana 3;', ';"na 3;'));
    await utimes(list, LIST_TIME, LIST_TIME);
    const reads = countReadsOf(list);
    const sim = await simulator();
    const run = await cli(['run', c.jobFile, '--json'], env(sim));
    expect(reads()).toBe(0);
    expect(run.code).toBe(0);
    expect(startsTo(sim).sort()).toEqual(c.phones.slice(DONE).sort());
    expect(JSON.parse(run.stdout).this_run).toMatchObject({ sent: ROWS - DONE, already_done: DONE });
    const store = path.join(c.stateDir, 'cli-test');
    const report = parseCsv(await readFile(path.join(store, 'report.csv'), 'utf8'));
    expect(report.map((r) => r.phone)).toEqual(c.phones);
    expect(report.every((r) => r.status === 'sent')).toBe(true);
    const rejects = parseCsv(await readFile(path.join(store, 'rejects.csv'), 'utf8'));
    expect(rejects.map((r) => r.reason).sort()).toEqual(['missing_variable:coupon', 'phone_invalid', 'phone_invalid']);
  });

  it('reads only a row appended to the list (grown-list.test.ts has the rest), and sends what is left and the new row, nobody twice', async () => {
    const { list } = await stoppedAfter();
    await appendFile(list, `(011) ${phoneOf(90).slice(5, 10)}-${phoneOf(90).slice(10)};New;BF90\n`);
    const reads = countReadsOf(list);
    const sim = await simulator();
    const run = await cli(['run', c.jobFile, '--json'], env(sim));
    expect(reads()).toBe(0);
    expect(run.code).toBe(0);
    expect(startsTo(sim).sort()).toEqual([...c.phones.slice(DONE), phoneOf(90)].sort());
  });

  it('after a kill with a request in flight: leaves that contact in doubt, sends the rest once, and a second run sends nobody', async () => {
    await stoppedAfter({ attemptOf: DONE });
    const sim = await simulator();
    const run = await cli(['run', c.jobFile, '--json'], env(sim));
    expect(run.code).toBe(1);
    expect(startsTo(sim).sort()).toEqual(c.phones.slice(DONE + 1).sort());
    const again = await cli(['run', c.jobFile, '--json'], env(sim));
    expect(startsTo(sim)).toHaveLength(ROWS - DONE - 1);
    const summary = JSON.parse(again.stdout) as { this_run: Record<string, number>; summary: { byStatus: Record<string, number> } };
    expect(summary.this_run).toMatchObject({ sent: 0, already_done: ROWS });
    const status = JSON.parse((await cli(['status', c.jobFile, '--json'], env(sim))).stdout) as { byStatus: Record<string, number> };
    expect(status.byStatus).toMatchObject({ sent: ROWS - 1, in_doubt: 1, pending: 0 });
  });
});
