import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countPending } from '../../src/app/list/store-listing.js';
import { sentContacts } from '../../src/app/delivery/replies.js';
import { ContactListing, StateTable, createFileStore, replay, statesOf, type ContactState } from '../../src/checkpoint/backends.js';
import { isoMs, isoText } from '../../src/time/iso.js';
import { AT, attempt, phoneOf, sent, tempDir } from './helpers.js';

function listingOf(phones: string[]): ContactListing {
  const listing = new ContactListing(2);
  phones.forEach((phone, i) => listing.add({ phone, line: i + 2 }));
  return listing;
}

describe('ContactListing', () => {
  it('keeps phones and lines in list order, growing as needed, a phone that is not E.164 as written', () => {
    const phones = [...Array.from({ length: 40 }, (_, i) => phoneOf(i)), 'no-phone'];
    const listing = listingOf(phones);
    expect(listing.size).toBe(41);
    expect([...listing].map((c) => c.phone)).toEqual(phones);
    expect([...listing].at(-1)).toEqual({ phone: 'no-phone', line: 42 });
    expect([...listing.filter((p) => p !== phoneOf(3))].map((c) => c.phone)).not.toContain(phoneOf(3));
  });

  it("keeps each row's file, name, phone as written and variant, and finds a contact by phone", () => {
    const listing = new ContactListing(1);
    listing.add({ phone: phoneOf(1), line: 2, file: '/lists/a.csv', name: 'José Ünal', phoneAsWritten: '(11) 9 0000-0001', variant: 'B' });
    listing.add({ phone: phoneOf(2), line: 3, file: '/lists/b.csv', name: '' });
    listing.add({ phone: phoneOf(3), line: 4, file: '/lists/a.csv', phoneAsWritten: '' });
    listing.add({ phone: 'odd', line: 5 });
    expect(listing.get(phoneOf(1))).toEqual({ phone: phoneOf(1), line: 2, file: '/lists/a.csv', name: 'José Ünal', phoneAsWritten: '(11) 9 0000-0001', variant: 'B' });
    expect(listing.get(phoneOf(2))).toEqual({ phone: phoneOf(2), line: 3, file: '/lists/b.csv', name: '' });
    expect(listing.get(phoneOf(3))).toEqual({ phone: phoneOf(3), line: 4, file: '/lists/a.csv', phoneAsWritten: '' });
    expect(listing.get('odd')).toEqual({ phone: 'odd', line: 5 });
    listing.add({ phone: phoneOf(7), line: 7, name: 'A\u0000B', phoneAsWritten: '11\u00009' });
    expect(listing.get(phoneOf(7))).toMatchObject({ name: 'A\uFFFDB', phoneAsWritten: '11\uFFFD9' });
    expect(listing.get(phoneOf(9))).toBeUndefined();
    listing.add({ phone: phoneOf(9), line: 6 });
    expect(listing.get(phoneOf(9))).toEqual({ phone: phoneOf(9), line: 6 });
  });

  it('is kept by the store for one source, and read back only for that source', async () => {
    const store = createFileStore(await tempDir());
    const listing = listingOf([phoneOf(1), phoneOf(2), 'odd']);
    listing.add({ phone: phoneOf(4), line: 9, file: 'x.csv', name: 'Ana', phoneAsWritten: '011 4', variant: 'default' });
    await store.saveListing('job', 'source-a', listing);
    expect([...((await store.listing('job', 'source-a')) ?? [])]).toEqual([...listing]);
    expect(await store.listing('job', 'source-b')).toBeUndefined();
    expect(await store.listing('other-job', 'source-a')).toBeUndefined();
  });

  it('reads as none when its file is damaged', async () => {
    const dir = await tempDir();
    const store = createFileStore(dir);
    await store.saveListing('job', 's', listingOf([phoneOf(1), phoneOf(2)]));
    const file = path.join(dir, 'job', 'listing.bin');
    const bytes = await readFile(file);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    await writeFile(file, bytes);
    expect(await store.listing('job', 's')).toBeUndefined();
    await writeFile(file, 'not a listing');
    expect(await store.listing('job', 's')).toBeUndefined();
  });

  it('read for its phones only, counts from them without reading the rest; a damaged rest is then an error once a contact is asked for', async () => {
    const dir = await tempDir();
    const store = createFileStore(dir);
    const listing = listingOf([phoneOf(1), phoneOf(2), 'odd', phoneOf(3)]);
    await store.saveListing('job', 's', listing);
    const table = new StateTable();
    for (const [phone, s] of replay([attempt(phoneOf(2)), attempt('odd')])) table.set(phone, s);
    const counting = await store.listing('job', 's', { phonesOnly: true });
    expect(counting && countPending(counting, table)).toBe(2);
    expect(counting && [...counting]).toEqual([...listing]);
    // A byte of the texts (the file's last part) flipped: the phones still count; a contact read is an error naming the file.
    const file = path.join(dir, 'job', 'listing.bin');
    const bytes = await readFile(file);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    await writeFile(file, bytes);
    expect(await store.listing('job', 's')).toBeUndefined();
    const damaged = await store.listing('job', 's', { phonesOnly: true });
    expect(damaged && countPending(damaged, table)).toBe(2);
    expect(() => damaged?.get(phoneOf(1))).toThrow(/listing .*listing\.bin changed or is damaged; run the command again/);
    // Damaged phones read as none, for counting as for anything else.
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    const phonesAt = bytes.indexOf(0x0a, bytes.indexOf(0x0a) + 1) + 1;
    bytes[phonesAt] = (bytes[phonesAt] ?? 0) ^ 0x01;
    await writeFile(file, bytes);
    expect(await store.listing('job', 's', { phonesOnly: true })).toBeUndefined();
  });

  it('read for its phones only, counts against a snapshot\'s states walking both part by part; phones changed on disk since are an error naming the file', async () => {
    const dir = await tempDir();
    const store = createFileStore(dir);
    const job = await store.openJob('job', { pid: process.pid, startedAt: AT, command: 'run' });
    await job.record({ t: 'header', v: 1, job: 'job', fingerprint: 'f', content: {}, at: AT });
    await Promise.all(Array.from({ length: 70_000 }, (_, i) => job.record(attempt(phoneOf(i)))));
    await job.close();
    // The list: the states' phones in their order, some left out, then 500 never reached, and one kept whole.
    const listing = listingOf([...Array.from({ length: 70_000 }, (_, i) => phoneOf(i)).filter((_, i) => i % 1_000 !== 7), ...Array.from({ length: 500 }, (_, i) => phoneOf(100_000 + i)), 'odd']);
    await store.saveListing('job', 's', listing);
    const view = await store.readJob('job');
    expect(Object.prototype.toString.call(view?.states)).toBe('[object CountedStates]');
    const counting = await store.listing('job', 's', { phonesOnly: true });
    if (!view || !counting) throw new Error('not read');
    expect(countPending(counting, view.states)).toBe(501);
    expect(countPending(counting, view.states)).toBe(countPending(listing, statesOf(new Map(view.states))));
    // The file rewritten in place (the same file still open) with a phone changed: the walk does not check at its end.
    const file = path.join(dir, 'job', 'listing.bin');
    const bytes = await readFile(file);
    const phonesAt = bytes.indexOf(0x0a, bytes.indexOf(0x0a) + 1) + 1;
    bytes[phonesAt + 8 * 60_000] = (bytes[phonesAt + 8 * 60_000] ?? 0) ^ 0x01;
    await writeFile(file, bytes);
    expect(() => countPending(counting, view.states)).toThrow(/listing .*listing\.bin changed or is damaged; run the command again/);
  });
});

describe('countPending and sentContacts', () => {
  const events = [attempt(phoneOf(1)), sent(phoneOf(1), 1, { conversation_id: '11', client_id: '12', message_id: '13' }), attempt(phoneOf(2)), sent(phoneOf(2), 2), attempt(phoneOf(3))];
  const map = replay(events);
  const table = new StateTable();
  for (const [phone, s] of map) table.set(phone, s);
  for (let i = 0; i < 5_000; i++) table.set(phoneOf(1_000 + i), { phone: phoneOf(1_000 + i), status: 'skipped', attempts: 0, followups: {}, reason: 'x' });
  for (let i = 0; i < 5_000; i++) map.set(phoneOf(1_000 + i), { phone: phoneOf(1_000 + i), status: 'skipped', attempts: 0, followups: {}, reason: 'x' });
  table.set('odd', { phone: 'odd', status: 'pending', attempts: 0, followups: {} } as ContactState);
  map.set('odd', { phone: 'odd', status: 'pending', attempts: 0, followups: {} } as ContactState);

  it('count the listed contacts with no state, from a table as from a plain Map', () => {
    const listing = listingOf([phoneOf(1), phoneOf(3), phoneOf(4), 'odd', 'odd-too', phoneOf(1_001)]);
    expect(countPending(listing, statesOf(map))).toBe(2);
    expect(countPending(listing, table)).toBe(2);
  });

  it('give each sent contact with its send time and ids, from the columns as from the states', () => {
    const fromMap = [...sentContacts(statesOf(map))];
    const fromTable = [...sentContacts(table)];
    expect(fromTable).toEqual(fromMap);
    expect(fromMap).toEqual([
      [phoneOf(1), { sentAt: AT, clientId: '12', conversationId: '11' }],
      [phoneOf(2), { sentAt: AT, clientId: 'client-2', conversationId: 'conv-2' }],
    ]);
  });
});

describe('StateTable as a Map', () => {
  it('runs forEach, clears, and gives a deleted phone set again its old place', () => {
    const table = new StateTable();
    const states = [...replay([attempt(phoneOf(1)), attempt(phoneOf(2)), attempt(phoneOf(3))]).values()];
    for (const s of states) table.set(s.phone, s);
    table.delete(phoneOf(2));
    const second = states[1];
    if (second) table.set(phoneOf(2), second);
    const seen: string[] = [];
    table.forEach((_, phone) => seen.push(phone));
    expect(seen).toEqual([phoneOf(1), phoneOf(2), phoneOf(3)]);
    expect(table.statusOf('nobody')).toBeUndefined();
    table.clear();
    expect(table.size).toBe(0);
    expect([...table.keys()]).toEqual([]);
  });
});

describe('ISO times', () => {
  it('read and write back exactly what toISOString writes, and refuse anything else', () => {
    for (let i = 0; i < 2_000; i++) {
      const ms = Math.floor(((i * 7919) % 2000) * 1.26e11 + i * 997);
      const text = new Date(ms).toISOString();
      expect(isoText(ms)).toBe(text);
      expect(isoMs(text)).toBe(ms);
    }
    for (const text of ['2026-02-29T00:00:00.000Z', '2026-11-21T10:00:00Z', '2026-11-21T24:00:00.000Z', '1969-12-31T23:59:59.999Z', '2026-11-21T10:0a:00.000Z', 12]) {
      expect(isoMs(text)).toBeUndefined();
    }
  });
});
