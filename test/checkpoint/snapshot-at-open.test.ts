import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadState, openJobJournal, readJournal, readSnapshot, replay, type CheckpointEvent } from '../../src/checkpoint/file/index.js';
import { attempt, phoneOf, sent, tempDir } from './helpers.js';

/** The snapshot writer, its promise held until the test lets it go (the file itself is written as usual). */
const gate = vi.hoisted(() => {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open: () => open(), calls: 0 };
});
vi.mock('../../src/checkpoint/file/snapshot.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/checkpoint/file/snapshot.js')>();
  return {
    ...actual,
    writeSnapshot: (...args: Parameters<typeof actual.writeSnapshot>) => {
      gate.calls += 1;
      const writing = actual.writeSnapshot(...args);
      return gate.opened.then(() => writing);
    },
  };
});

const header: CheckpointEvent = { t: 'header', v: 1, job: 'promo', fingerprint: 'abc', content: {}, at: '2026-11-21T10:00:00.000Z' };

describe('the snapshot of a journal folded at open', () => {
  it('is written while the run goes on: the job opens and records before it is done, close waits for it, and it describes the journal as of the open', async () => {
    const file = path.join(await tempDir(), 'promo', 'checkpoint.jsonl');
    const events: CheckpointEvent[] = [header];
    for (let i = 0; i < 6_000; i++) events.push(attempt(phoneOf(i), { line: i + 2 }), sent(phoneOf(i), i));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, events.map((e) => `${JSON.stringify(e)}\n`).join(''));

    // Before, opening waited for the snapshot: this open never resolved while the writer was held.
    const journal = await openJobJournal(file);
    expect(gate.calls).toBe(1);
    await journal.record(attempt(phoneOf(9_000)));
    await journal.record(sent(phoneOf(3), 3, { message_id: '777' }));
    let closed = false;
    const closing = journal.close().then(() => (closed = true));
    await new Promise((r) => setImmediate(r));
    expect(closed).toBe(false);
    gate.open();
    await closing;

    const snapshot = await readSnapshot(file);
    expect(snapshot?.position.events).toBe(12_000);
    const loaded = await loadState(file);
    expect(new Map(loaded.state)).toEqual(replay((await readJournal(file)).events));
  }, 15_000);
});
