import { statSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jobStatus } from '../../src/app/index.js';
import { digestStates } from '../../src/app/report/states-digest.js';
import { createFileStore, statesOf } from '../../src/checkpoint/backends.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { outcomeJournal } from '../helpers/outcome-journal.js';

/** Bytes read by path (the store's binary files are read with readSync on a descriptor). */
const reads = vi.hoisted(() => ({ byPath: new Map<string, number>(), pathOf: new Map<number, string>() }));
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const openSync = (...args: Parameters<typeof fs.openSync>): number => {
    const fd = fs.openSync(...args);
    reads.pathOf.set(fd, String(args[0]));
    return fd;
  };
  const readSync = (...args: unknown[]): number => {
    const n = (fs.readSync as (...a: unknown[]) => number)(...args);
    const file = reads.pathOf.get(args[0] as number);
    if (file !== undefined) reads.byPath.set(file, (reads.byPath.get(file) ?? 0) + n);
    return n;
  };
  return { ...fs, default: { ...fs, openSync, readSync }, openSync, readSync };
});

const AT = '2025-01-15T10:00:00.000Z';
const made: Campaign[] = [];
afterEach(async () => {
  for (const c of made.splice(0)) await c.cleanup();
});

describe('status of a job with a snapshot', () => {
  it('reads the snapshot\'s head, its phones and the rows the tail touched, never its other columns, and counts the same as a full read', async () => {
    const rows = 8_000;
    const c = await campaign({ rows });
    made.push(c);
    const store = createFileStore(c.stateDir);
    const all = outcomeJournal(c.phones.slice(0, rows - 1_000));
    const job = await store.openJob('cli-test', { pid: process.pid, startedAt: AT, command: 'run' });
    await Promise.all(all.slice(0, -150).map((e) => job.record(e)));
    await job.close();
    // A tail after the snapshot: the last contacts, and new outcomes for ones the snapshot holds.
    const again = await store.openJob('cli-test', { pid: process.pid, startedAt: AT, command: 'run' });
    await Promise.all(all.slice(-150).map((e) => again.record(e)));
    await again.record({ t: 'attempt', phone: c.phones[4]!, via: 'template', action: 'template', at: AT });
    await again.record({ t: 'sent', phone: c.phones[4]!, via: 'template', action: 'template', conversation_id: '104', client_id: '504', message_id: '1904', at: AT });
    await again.record({ t: 'delivery', phone: c.phones[8]!, status: 'delivered', delivered_at: AT, at: AT });
    await again.record({ t: 'attempt', phone: c.phones[rows - 1]!, via: 'start', action: 'template', line: rows + 1, at: AT });
    await again.close();
    // The first status reads the list and keeps its listing; the one measured reads what the store kept.
    await jobStatus(c.jobFile, { store, clock: () => Date.parse(AT) });

    reads.byPath.clear();
    const status = await jobStatus(c.jobFile, { store, clock: () => Date.parse(AT) });
    const snapshot = [...reads.byPath].find(([file]) => file.endsWith('.snapshot'));
    const snapshotFile = `${c.stateDir}/cli-test/checkpoint.jsonl.snapshot`;
    expect(snapshot?.[1]).toBeGreaterThan(0);
    // The head (read in 64 KiB), 8 bytes a phone, and about 100 bytes for each of the rows the tail touched.
    expect(snapshot?.[1]).toBeLessThan(65_536 + 8 * rows + 200 * 128);
    expect(statSync(snapshotFile).size).toBeGreaterThan(65_536 + 60 * rows);
    // The listing is read through once (its phones kept, the rest only checked), never decoded twice.
    const listing = [...reads.byPath].find(([file]) => file.endsWith('listing.bin'));
    expect(listing?.[1]).toBeLessThanOrEqual(65_536 + statSync(`${c.stateDir}/cli-test/listing.bin`).size);

    const view = await store.readJob('cli-test');
    const states = new Map(view?.states ?? []);
    // Every state read (`also` given), against the counters status sums.
    const full = digestStates(statesOf(states), { pending: rows - states.size, replies: new Map() }, () => undefined);
    expect(status.summary).toEqual(full.summary);
    expect(status.funnel).toEqual(full.funnel);
    expect(status.deferred).toEqual(full.deferred);
    expect(status.summary.byStatus.pending).toBe(rows - states.size);
    expect(status.summary.byStatus).toMatchObject({ sent: (rows - 1_000) / 2 + 1, in_doubt: ((rows - 1_000) * 3) / 8 + 1 });
  });
});
