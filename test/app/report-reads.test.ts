import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jobReport, jobStatus } from '../../src/app/index.js';
import { ContactListing, createFileStore, StateTable } from '../../src/checkpoint/backends.js';
import { reportRowsOf, writeReport } from '../../src/report/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { outcomeJournal } from '../helpers/outcome-journal.js';

const AT = '2025-01-15T10:00:00.000Z';
const made: Campaign[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of made.splice(0)) await c.cleanup();
});

describe('report of a job whose states come in the list\'s order', () => {
  it('finds each row of the listing by walking it beside the states (no lookup by phone, no index of the states) and writes the same bytes as a lookup of each', async () => {
    const rows = 3_000;
    const c = await campaign({ rows });
    made.push(c);
    const store = createFileStore(c.stateDir);
    const job = await store.openJob('cli-test', { pid: process.pid, startedAt: AT, command: 'run' });
    await Promise.all(outcomeJournal(c.phones.slice(0, rows - 200), { failedError: '=(#131026) "undeliverable", again' }).map((e) => job.record(e)));
    await job.close();
    // The first report reads the list and keeps its listing.
    await jobReport(c.jobFile, { store, out: path.join(c.dir, 'first.csv') });

    const get = vi.spyOn(ContactListing.prototype, 'get');
    const has = vi.spyOn(StateTable.prototype, 'has');
    const out = path.join(c.dir, 'report.csv');
    const result = await jobReport(c.jobFile, { store, out });
    expect(get).not.toHaveBeenCalled();
    expect(has).not.toHaveBeenCalled();
    expect(result.contacts).toBe(rows);
    vi.restoreAllMocks();

    // The reference: every row looked up by phone, the list's contacts checked against the states one by one.
    const view = await store.readJob('cli-test');
    const states = new Map(view?.states ?? []);
    const listing = new ContactListing();
    for (const [i, phone] of c.phones.entries()) listing.add({ phone, line: i + 2, file: path.join(c.dir, 'contacts.csv'), name: `Ana ${i}`, phoneAsWritten: `(011) ${phone.slice(5, 10)}-${phone.slice(10)}` });
    const reference = path.join(c.dir, 'reference.csv');
    await writeReport(reference, reportRowsOf(states, { replies: new Map(), pendingPhones: listing, sources: listing }), 'csv', {});
    const bytes = await readFile(out);
    expect(bytes.equals(await readFile(reference))).toBe(true);
    expect(bytes.toString('utf8').split('\n').length).toBe(rows + 2);
  });

  it('writes report.csv without counting the list\'s contacts the state has not seen (the rows are the count), as status still counts them', async () => {
    const rows = 300;
    const c = await campaign({ rows });
    made.push(c);
    const store = createFileStore(c.stateDir);
    const job = await store.openJob('cli-test', { pid: process.pid, startedAt: AT, command: 'run' });
    await Promise.all(outcomeJournal(c.phones.slice(0, rows - 20)).map((e) => job.record(e)));
    await job.close();
    await jobReport(c.jobFile, { store, out: path.join(c.dir, 'first.csv') });

    const states = (await store.readJob('cli-test'))?.states;
    const proto = states === undefined ? undefined : (Object.getPrototypeOf(states) as { countUnseen?: unknown });
    expect(typeof proto?.countUnseen).toBe('function');
    const countUnseen = vi.spyOn(proto as { countUnseen: () => number }, 'countUnseen');
    const result = await jobReport(c.jobFile, { store, out: path.join(c.dir, 'report.csv') });
    expect(result.contacts).toBe(rows);
    expect((await readFile(path.join(c.dir, 'report.csv'))).equals(await readFile(path.join(c.dir, 'first.csv')))).toBe(true);
    expect(countUnseen).not.toHaveBeenCalled();

    const status = await jobStatus(c.jobFile, { store });
    expect(countUnseen).toHaveBeenCalledTimes(1);
    expect(status.summary.byStatus.pending).toBe(20);
  });
});
