import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileStore, replay, tallyKey, type CheckpointEvent } from '../../src/checkpoint/backends.js';
import { readJournal } from '../../src/checkpoint/file/index.js';
import { ContactListing } from '../../src/checkpoint/listing.js';
import { snapshotMeta } from '../../src/checkpoint/snapshot-codec.js';
import { attempt, failed, phoneOf, sent, tempDir } from './helpers.js';

const OWNER = { pid: process.pid, startedAt: '2025-01-01T00:00:00.000Z', command: 'run' };

function counts(tallies: Iterable<{ state: Parameters<typeof tallyKey>[0]; count: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of tallies) out.set(tallyKey(t.state), (out.get(tallyKey(t.state)) ?? 0) + t.count);
  return out;
}

describe('a job read for counting', () => {
  it('whose snapshot columns are damaged past its phones: counts from the counters, and a state asked for comes from the journal replayed', async () => {
    const dir = await tempDir();
    const store = createFileStore(dir);
    const events: CheckpointEvent[] = [{ t: 'header', v: 1, job: 'job', fingerprint: 'f', content: {}, at: '2025-01-01T00:00:00.000Z' }];
    for (let i = 0; i < 6_000; i++) events.push(attempt(phoneOf(i)), i % 5 === 0 ? failed(phoneOf(i)) : sent(phoneOf(i), i));
    const job = await store.openJob('job', OWNER);
    await Promise.all(events.map((e) => job.record(e)));
    await job.close();
    const again = await store.openJob('job', OWNER);
    await again.record(attempt(phoneOf(5)));
    await again.record(attempt('+5511900000001'));
    await again.close();

    // A byte of the `rest` column (the one before the counters' own column) flipped.
    const file = path.join(dir, 'job', 'checkpoint.jsonl.snapshot');
    const bytes = await readFile(file);
    const at = bytes.length - 6_000 * 4 - 100;
    bytes[at] = (bytes[at] ?? 0) ^ 0x01;
    await writeFile(file, bytes);

    const truth = replay((await readJournal(path.join(dir, 'job', 'checkpoint.jsonl'))).events);
    const view = await store.readJob('job');
    expect(view?.states.size).toBe(truth.size);
    expect(counts(view?.states.tallies?.() ?? [])).toEqual(counts([...truth.values()].map((state) => ({ state, count: 1 }))));
    expect(view?.states.get(phoneOf(5))?.status).toBe('in_doubt');
    expect(new Map(view?.states ?? [])).toEqual(truth);
  });

  it('whose phone column is damaged: counts the listed contacts with no state from the journal replayed, as a read of every state does', async () => {
    const dir = await tempDir();
    const store = createFileStore(dir);
    const job = await store.openJob('job', OWNER);
    await job.record({ t: 'header', v: 1, job: 'job', fingerprint: 'f', content: {}, at: '2025-01-01T00:00:00.000Z' });
    await Promise.all(Array.from({ length: 6_000 }, (_, i) => [attempt(phoneOf(i)), sent(phoneOf(i), i)]).flat().map((e) => job.record(e)));
    await job.close();
    const listing = new ContactListing();
    for (let i = 5_990; i < 6_010; i++) listing.add({ phone: phoneOf(i), line: i + 2 });
    const intact = await store.readJob('job');
    expect(Object.prototype.toString.call(intact?.states)).toBe('[object CountedStates]');
    expect(intact?.states.countUnseen(listing)).toBe(10);

    // A byte of a listed contact's phone (the first column) flipped: the parts read do not check once read through.
    const file = path.join(dir, 'job', 'checkpoint.jsonl.snapshot');
    const bytes = await readFile(file);
    const meta = snapshotMeta(bytes);
    if (!meta) throw new Error('no snapshot');
    bytes[meta.offset + 8 * 5_995] = (bytes[meta.offset + 8 * 5_995] ?? 0) ^ 0x01;
    await writeFile(file, bytes);
    const view = await store.readJob('job');
    expect(Object.prototype.toString.call(view?.states)).toBe('[object CountedStates]');
    expect(view?.states.countUnseen(listing)).toBe(10);
    expect(view?.states.size).toBe(6_000);
  });
});
