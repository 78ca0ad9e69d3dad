import { appendFile, readdir, readFile, rename, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import {
  applyEvent,
  loadState,
  openJobJournal,
  readJournal,
  readSnapshot,
  replay,
  snapshotFileOf,
  snapshotIfDue,
  StateTable,
  writeSnapshot,
  type CheckpointEvent,
  type ContactState,
} from '../../src/checkpoint/file/index.js';
import { decodeSnapshot, encodeSnapshot, snapshotMeta } from '../../src/checkpoint/snapshot-codec.js';
import { ContactListing, tallyKey } from '../../src/checkpoint/index.js';
import { AT, attempt, failed, phoneOf, sent, tempDir } from './helpers.js';

const header: CheckpointEvent = { t: 'header', v: 1, job: 'promo', fingerprint: 'abc', content: { template: 'hello' }, at: AT };

function lines(events: CheckpointEvent[]): string {
  return events.map((e) => `${JSON.stringify(e)}\n`).join('');
}

/** A mixed journal: every status, numeric and other ids, follow-ups, deliveries, reconciles, provider deferrals, a second header. */
function journalEvents(from: number, count: number): CheckpointEvent[] {
  const out: CheckpointEvent[] = [];
  for (let i = from; i < from + count; i++) {
    const phone = phoneOf(i);
    const at = new Date(Date.UTC(2026, 10, 21, 10, 0, 0, i)).toISOString();
    out.push(attempt(phone, { line: i + 2, at }));
    switch (i % 9) {
      case 0:
        out.push(sent(phone, i, { conversation_id: String(1000 + i), client_id: String(5000 + i), message_id: String(9000 + i), at }));
        break;
      case 1:
        out.push(sent(phone, i, { media_owed: true, at }), { t: 'followup', phone, step: 'tag:vip', ok: false, error: 'tag 404', at });
        break;
      case 2:
        out.push(failed(phone, { status: 502, retryable: true, conversation_id: String(i), error: `provider said no ${i % 3}`, at }));
        break;
      case 3:
        break; // in doubt: no outcome
      case 4:
        out.push({ t: 'skipped', phone, reason: 'opted_out', line: i + 2, at });
        break;
      case 5:
        out.push({ t: 'deferred', phone, reason: 'quiet_hours', not_before: '2026-11-22T09:00:00.000Z', zone: 'Europe/Paris', at });
        break;
      case 6:
        out.push(sent(phone, i, { at }), { t: 'delivery', phone, status: 'read', delivered_at: at, read_at: at, at });
        break;
      case 7:
        out.push({ t: 'reconciled', phone, result: 'sent', via: 'start', action: 'template', conversation_id: String(i), message_id: `m${i}`, sent_at: at, at });
        break;
      default:
        out.push({ t: 'deferred', phone, reason: 'marketing_limit', not_before: at, code: 131049, error_class: 'marketing_limit', at });
    }
  }
  return out;
}

async function journalFile(): Promise<string> {
  return path.join(await tempDir(), 'checkpoint.jsonl');
}

/** The state a full replay of the whole file gives, as a plain Map. */
async function fullReplay(file: string): Promise<Map<string, ContactState>> {
  return replay((await readJournal(file)).events);
}

function sameStates(a: ReadonlyMap<string, ContactState>, b: ReadonlyMap<string, ContactState>): boolean {
  return a.size === b.size && [...a].every(([phone, s]) => isDeepStrictEqual(b.get(phone), s));
}

describe('StateTable', () => {
  it('gives back every state deep-equal to the one set, whatever it holds', () => {
    const odd: ContactState[] = [
      ...replay(journalEvents(0, 12)).values(),
      { phone: phoneOf(100), status: 'sent', attempts: 1, followups: { media: true }, via: 'start', action: 'text', conversationId: 'c-77', clientId: '0012', messageId: '12345678901234567890', sentAt: '2026-11-21T10:00:00Z' },
      { phone: phoneOf(101), status: 'pending', attempts: 0, followups: {}, updatedAt: 'yesterday' },
      { phone: phoneOf(102), status: 'failed', attempts: 70_000, followups: {}, via: 'message', action: 'template', httpStatus: 0, retryable: false, error: 'x' },
      { phone: phoneOf(103), status: 'in_doubt', attempts: 1, followups: { media: false }, followupsInDoubt: { media: true }, via: 'start', action: 'template', error: 'e', line: 0 },
      { phone: phoneOf(104), status: 'sent', attempts: 2, followups: {}, via: 'template', action: 'template', conversationId: '5', messageId: '6', sentAt: AT, mediaLeftOut: false, deliveredAt: AT } as unknown as ContactState,
      { phone: phoneOf(105), status: 'unknown_later', attempts: 1, followups: {} } as unknown as ContactState,
      { phone: phoneOf(106), status: 'sent', attempts: 1, followups: {}, via: 'start', action: 'template', conversationId: '7', messageId: '8', sentAt: AT, delivery: { status: 'read', deliveredAt: AT, readAt: AT } },
      { phone: phoneOf(107), status: 'sent', attempts: 1, followups: {}, via: 'start', action: 'template', conversationId: '7', messageId: '8', sentAt: AT, delivery: { status: 'sent' } },
      { phone: phoneOf(108), status: 'sent', attempts: 1, followups: {}, via: 'start', action: 'template', conversationId: '7', messageId: '8', sentAt: AT, delivery: { status: 'failed', failedAt: AT, failureCode: 131050, failureReason: 'stopped' } },
      { phone: phoneOf(109), status: 'sent', attempts: 1, followups: {}, via: 'start', action: 'template', conversationId: '7', messageId: '8', sentAt: AT, delivery: { status: 'delivered', deliveredAt: 'soon' } },
    ];
    const table = new StateTable(4);
    for (const s of odd) table.set(s.phone, s);
    for (const s of odd) expect(table.get(s.phone)).toStrictEqual(s);
    // Out of the recent-state cache too: a table grown past it encodes them all.
    for (let i = 0; i < 10_000; i++) table.set(phoneOf(1_000 + i), { phone: phoneOf(1_000 + i), status: 'pending', attempts: 0, followups: {} });
    for (const s of odd) expect(table.get(s.phone)).toStrictEqual(s);
  });

  it('behaves as a Map: order of first set, size, has, delete, a key that is not a phone', () => {
    const table = new StateTable();
    const map = new Map<string, ContactState>();
    const states = [...replay(journalEvents(0, 30)).values()];
    const weird: ContactState = { phone: 'not-a-phone', status: 'pending', attempts: 0, followups: {} };
    for (const s of [...states, weird, ...states.slice(0, 5).map((x) => ({ ...x, attempts: 9 }))]) {
      table.set(s.phone, s);
      map.set(s.phone, s);
    }
    table.delete(states[3]!.phone);
    map.delete(states[3]!.phone);
    expect(table.size).toBe(map.size);
    expect([...table.keys()]).toEqual([...map.keys()]);
    expect([...table.values()]).toStrictEqual([...map.values()]);
    expect(table.has(states[3]!.phone)).toBe(false);
    expect(table.get('not-a-phone')).toBe(weird);
    expect(table.statusOf(states[0]!.phone)).toBe(map.get(states[0]!.phone)?.status);
  });
});

describe('the snapshot', () => {
  it('plus the journal after it replays to the same state as the whole journal', async () => {
    const file = await journalFile();
    await writeFile(file, lines([header, ...journalEvents(0, 300)]));
    const first = await loadState(file);
    await writeSnapshot(file, first.state, first.header, first.position);
    // Later events: new contacts, and contacts of the snapshot that change again.
    await appendFile(file, lines([...journalEvents(300, 100), attempt(phoneOf(3), { via: 'template' }), sent(phoneOf(3), 3), { ...header, fingerprint: 'def' }]));

    const loaded = await loadState(file);
    expect(loaded.tailBytes).toBeLessThan((await stat(file)).size / 2);
    expect(sameStates(loaded.state, await fullReplay(file))).toBe(true);
    expect([...loaded.state.keys()]).toEqual([...(await fullReplay(file)).keys()]);
    expect(loaded.header?.fingerprint).toBe('def');
    expect(loaded.position.events).toBe((await readJournal(file)).events.length);
  });

  it('is not written of a journal replaced since it was read (a run compacted it meanwhile)', async () => {
    const file = await journalFile();
    await writeFile(file, lines([header, ...journalEvents(0, 50)]));
    const read = await loadState(file);
    const copy = `${file}.new`;
    await writeFile(copy, await readFile(file));
    await rename(copy, file);
    const result = await snapshotIfDue(file, read, Number.POSITIVE_INFINITY);
    expect(result).toMatchObject({ written: false, problem: expect.stringMatching(/was replaced while it was read/) });
    expect(await readSnapshot(file)).toBeUndefined();
  });

  it('skips a torn last line after it, and counts the torn line by its place in the whole file', async () => {
    const file = await journalFile();
    await writeFile(file, lines([header, ...journalEvents(0, 50)]));
    const first = await loadState(file);
    await writeSnapshot(file, first.state, first.header, first.position);
    await appendFile(file, `${lines(journalEvents(50, 2))}{"t":"sent","phone":"+5511`);

    const loaded = await loadState(file);
    const whole = await readJournal(file);
    expect(sameStates(loaded.state, replay(whole.events))).toBe(true);
    expect(loaded.tornLineNumbers).toEqual(whole.tornLineNumbers);
  });

  it('is ignored when a crash left it half written, and the state comes from the whole journal', async () => {
    const file = await journalFile();
    await writeFile(file, lines([header, ...journalEvents(0, 80)]));
    const first = await loadState(file);
    await writeSnapshot(file, first.state, first.header, first.position);
    const whole = (await stat(snapshotFileOf(file))).size;
    // A snapshot cut short, and the temp files of writes whose process died (an earlier version's name, and today's).
    await truncate(snapshotFileOf(file), Math.floor(whole / 2));
    await writeFile(`${snapshotFileOf(file)}.999999999.tmp`, 'half a snapshot');
    await writeFile(path.join(path.dirname(file), `.${path.basename(snapshotFileOf(file))}.999999999.1.0a1b2c3d.tmp`), 'half another');

    expect(await readSnapshot(file)).toBeUndefined();
    const loaded = await loadState(file);
    expect(loaded.tailBytes).toBe((await stat(file)).size);
    expect(sameStates(loaded.state, await fullReplay(file))).toBe(true);

    // The next snapshot replaces it and clears the dead write's temp file.
    await writeSnapshot(file, loaded.state, loaded.header, loaded.position);
    expect((await readdir(path.dirname(file))).sort()).toEqual(['checkpoint.jsonl', 'checkpoint.jsonl.snapshot']);
    expect((await loadState(file)).tailBytes).toBe(0);
  });

  it('is ignored when a byte of it changed, or when the journal is no longer the one it was made from', async () => {
    const file = await journalFile();
    await writeFile(file, lines([header, ...journalEvents(0, 80)]));
    const first = await loadState(file);
    await writeSnapshot(file, first.state, first.header, first.position);
    const bytes = await readFile(snapshotFileOf(file));
    bytes[bytes.length - 3] = (bytes[bytes.length - 3] ?? 0) ^ 0xff;
    await writeFile(snapshotFileOf(file), bytes);
    expect(await readSnapshot(file)).toBeUndefined();

    await writeSnapshot(file, first.state, first.header, first.position);
    expect(await readSnapshot(file)).toBeDefined();
    // The journal rewritten (another job's, or restored from elsewhere): the snapshot is not of it.
    await writeFile(file, lines([header, ...journalEvents(500, 90)]));
    expect(await readSnapshot(file)).toBeUndefined();
    expect(sameStates((await loadState(file)).state, await fullReplay(file))).toBe(true);
  });
});

describe('openJobJournal with snapshots', () => {
  it('writes one at close after a long run, and the next open replays only what came after', async () => {
    const file = await journalFile();
    const journal = await openJobJournal(file);
    await journal.record(header);
    await Promise.all(journalEvents(0, 4_000).map((e) => journal.record(e)));
    await journal.close();
    expect((await stat(snapshotFileOf(file))).size).toBeGreaterThan(0);

    const again = await openJobJournal(file);
    await again.record(sent(phoneOf(3), 3));
    await again.close();
    const loaded = await loadState(file);
    expect(loaded.tailBytes).toBeLessThan(1_000);
    expect(sameStates(loaded.state, await fullReplay(file))).toBe(true);
  });

  it('describes the state at its position, not what was folded while the journal was being checked', async () => {
    const file = await journalFile();
    await writeFile(file, lines([header, ...journalEvents(0, 50)]));
    const loaded = await loadState(file, { fromStart: true });
    const writing = writeSnapshot(file, loaded.state, loaded.header, loaded.position, loaded.journalIno);
    // A run goes on meanwhile: an event appended after that position is folded into the same table.
    const later = attempt(phoneOf(7), { at: '2026-11-21T11:00:00.000Z' });
    await appendFile(file, lines([later]));
    applyEvent(loaded.state, later);
    await writing;
    const reread = await loadState(file);
    expect(reread.tailBytes).toBeGreaterThan(0);
    expect(sameStates(reread.state, await fullReplay(file))).toBe(true);
  });

  it('keeps a recent snapshot while a run goes, so a crash leaves a short tail to replay', async () => {
    const file = await journalFile();
    const journal = await openJobJournal(file, { snapshotDuringRunBytes: 64 * 1024 });
    await journal.record(header);
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(journalEvents(batch * 200, 200).map((e) => journal.record(e)));
      await new Promise((r) => setImmediate(r));
    }
    // A crash: the journal is never closed, no snapshot at close. The last snapshot (written in the
    // background) covers all but the snapshot interval and what was recorded while it was written.
    const size = (await stat(file)).size;
    await vi.waitFor(
      async () => {
        const snapshot = await readSnapshot(file);
        expect(size - (snapshot?.position.bytes ?? 0)).toBeLessThan(size / 3);
      },
      { timeout: 5_000, interval: 20 },
    );
    const loaded = await loadState(file);
    expect(sameStates(loaded.state, await fullReplay(file))).toBe(true);
    await journal.close();
  });

  it('replays the whole journal when there is no snapshot, whatever its size, as before', async () => {
    const file = await journalFile();
    await writeFile(file, lines([header, ...journalEvents(0, 100)]));
    const journal = await openJobJournal(file);
    expect(sameStates(journal.state, await fullReplay(file))).toBe(true);
    await journal.close();
  });
});

describe('the counters a snapshot keeps', () => {
  const counts = (table: StateTable) => new Map(table.tallies().map((t) => [tallyKey(t.state), t.count]));
  const recount = (table: StateTable) => {
    const out = new Map<string, number>();
    for (const s of table.values()) out.set(tallyKey(s), (out.get(tallyKey(s)) ?? 0) + 1);
    return out;
  };

  it('reads a snapshot written before the counters were kept, counting its states once', async () => {
    const table = new StateTable();
    for (const e of journalEvents(0, 300)) if (e.t !== 'header') applyEvent(table, e);
    const image = table.image();
    const { tallies: _kept, ...before } = image;
    const data = Buffer.concat(encodeSnapshot(before, undefined, {}));
    const meta = snapshotMeta(data);
    const decoded = meta && decodeSnapshot(data, meta);
    if (!decoded) throw new Error('the image did not decode');
    expect(counts(decoded.table)).toEqual(recount(table));
    expect(counts(decoded.table)).toEqual(counts(table));
  });
});

describe('a table read from a snapshot', () => {
  it('counts the listed contacts it has no state of as one with its phone index does', async () => {
    const table = new StateTable();
    for (const e of journalEvents(0, 200)) if (e.t !== 'header') applyEvent(table, e);
    table.delete(phoneOf(7));
    const data = Buffer.concat(encodeSnapshot(table.image(), undefined, {}));
    const meta = snapshotMeta(data);
    const read = meta && decodeSnapshot(data, meta);
    if (!read) throw new Error('the image did not decode');
    const listing = new ContactListing();
    for (const i of [250, 3, 7, 199, 3, 400, 120]) listing.add({ phone: phoneOf(i), line: i + 2 });
    listing.add({ phone: 'not-a-phone', line: 9 });
    expect(read.table.countUnseen(listing)).toBe(4);
    expect(table.countUnseen(listing)).toBe(4);
  });
});
