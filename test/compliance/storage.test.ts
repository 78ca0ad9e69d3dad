import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore, LedgerIndex, SuppressionIndex } from '../../src/checkpoint/backends.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 1, 12);
const iso = (ms: number) => new Date(ms).toISOString();
const A = '+5511987650001';
const B = '+5511987650002';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-compliance-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the suppression list (SuppressionIndex)', () => {
  it('keeps a hand-made entry against a later keyword one, and lets a hand-made one replace a keyword one', () => {
    const index = new SuppressionIndex();
    index.apply({ op: 'add', phone: A, reason: 'asked by phone', source: 'manual', at: iso(T0) });
    index.apply({ op: 'add', phone: A, reason: 'replied STOP', source: 'reply_keyword', at: iso(T0 + HOUR) });
    expect(index.get(A)).toMatchObject({ source: 'manual', reason: 'asked by phone' });

    index.apply({ op: 'add', phone: B, reason: 'replied STOP', source: 'reply_keyword', at: iso(T0) });
    index.apply({ op: 'add', phone: B, reason: '131050', source: 'provider', at: iso(T0 + HOUR) });
    expect(index.get(B)).toMatchObject({ source: 'provider' });
  });

  it('lets an opt-in keyword remove only a keyword entry made at or before it, and ignores an older STOP arriving after it', () => {
    const index = new SuppressionIndex();
    index.apply({ op: 'add', phone: A, reason: 'replied STOP', source: 'reply_keyword', at: iso(T0) });
    index.apply({ op: 'add', phone: B, reason: 'by hand', source: 'manual', at: iso(T0) });
    index.apply({ op: 'remove', phone: A, only_source: 'reply_keyword', at: iso(T0 + HOUR) });
    index.apply({ op: 'remove', phone: B, only_source: 'reply_keyword', at: iso(T0 + HOUR) });
    expect(index.get(A)).toBeUndefined();
    expect(index.get(B)).toMatchObject({ source: 'manual' });

    index.apply({ op: 'add', phone: A, reason: 'replied STOP', source: 'reply_keyword', at: iso(T0 + HOUR / 2) });
    expect(index.get(A)).toBeUndefined();
    index.apply({ op: 'add', phone: A, reason: 'replied STOP', source: 'reply_keyword', at: iso(T0 + 2 * HOUR) });
    expect(index.get(A)).toMatchObject({ source: 'reply_keyword' });
  });
});

describe('the suppression list in the file store', () => {
  it('is shared by every store of the folder, durable, and seen by an open list after refresh', async () => {
    const writer = createFileStore(dir);
    const reader = createFileStore(dir);
    const list = await reader.suppressions();
    expect(list.size).toBe(0);

    const added = await writer.suppress([
      { phone: A, reason: 'asked', source: 'manual' },
      { phone: B, reason: 'list from the CRM', source: 'import' },
    ]);
    expect(added.added.map((e) => e.phone)).toEqual([A, B]);
    await list.refresh();
    expect(list.get(A)).toMatchObject({ reason: 'asked', source: 'manual' });
    expect([...list.entries()].map((e) => e.phone)).toEqual([A, B]);

    const again = await writer.suppress([{ phone: A, reason: 'replied STOP', source: 'reply_keyword' }]);
    expect(again).toMatchObject({ added: [], already: [{ phone: A, source: 'manual' }] });
    expect(await reader.unsuppress([A, '+5511000000000'])).toEqual([A]);
    await list.refresh();
    expect(list.get(A)).toBeUndefined();

    const lines = (await readFile(path.join(dir, 'suppressions.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.op)).toEqual(['add', 'add', 'add', 'remove', 'remove']);
  });

  it('skips a torn last line and starts the next change on a line of its own', async () => {
    const store = createFileStore(dir);
    await store.suppress([{ phone: A, reason: 'x', source: 'manual' }]);
    await appendFile(path.join(dir, 'suppressions.jsonl'), '{"v":1,"op":"add","phone":"+55119');
    await store.suppress([{ phone: B, reason: 'y', source: 'manual' }]);
    const list = await createFileStore(dir).suppressions();
    expect([...list.entries()].map((e) => e.phone)).toEqual([A, B]);
  });
});

describe('the ledger', () => {
  it('counts distinct recipients messaged outside their window in a rolling 24 hours, and when each leaves it', () => {
    const index = new LedgerIndex();
    index.add({ phone: A, at: T0, job: 'a', outsideWindow: true });
    index.add({ phone: B, at: T0 + HOUR, job: 'a', outsideWindow: true });
    index.add({ phone: A, at: T0 + 2 * HOUR, job: 'b', outsideWindow: true });
    index.add({ phone: '+5511987650003', at: T0 + 3 * HOUR, job: 'b', outsideWindow: false });

    expect(index.uniqueOutsideWindowSince(T0 - 1)).toBe(2);
    expect(index.nthOutsideWindowSince(T0 - 1, 0)).toBe(T0 + HOUR);
    expect(index.nthOutsideWindowSince(T0 - 1, 1)).toBe(T0 + 2 * HOUR);
    expect(index.nthOutsideWindowSince(T0 - 1, 2)).toBeUndefined();
    expect(index.uniqueOutsideWindowSince(T0 + HOUR)).toBe(1);
    expect(index.lastMessagedAt(A)).toBe(T0 + 2 * HOUR);
    expect(index.lastMessagedAt(A, { exceptJob: 'b' })).toBe(T0);
    expect(index.lastMessagedAt(B, { exceptJob: 'a' })).toBeUndefined();
  });

  it('is written durably and read by every store of the folder', async () => {
    const ledger = await createFileStore(dir).ledger();
    await Promise.all(Array.from({ length: 20 }, (_, i) => ledger.record({ phone: `+55119876500${String(i).padStart(2, '0')}`, at: T0 + i, job: 'a', outsideWindow: i % 2 === 0 })));
    expect(ledger.uniqueOutsideWindowSince(0)).toBe(10);
    const other = await createFileStore(dir).ledger();
    expect(other.uniqueOutsideWindowSince(0)).toBe(10);
    await ledger.record({ phone: A, at: T0 + 100, job: 'b', outsideWindow: true });
    await other.refresh();
    expect(other.lastMessagedAt(A, { exceptJob: 'a' })).toBe(T0 + 100);
  });
});
