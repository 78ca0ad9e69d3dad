import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { digestStates } from '../../src/app/report/states-digest.js';
import { applyEvent, NO_ANSWER } from '../../src/checkpoint/apply-event.js';
import { createFileStore, replay, tallyKey, type CheckpointEvent } from '../../src/checkpoint/backends.js';
import { readJournal, readSnapshot, snapshotFileOf } from '../../src/checkpoint/file/index.js';
import { journalCheck, type JournalPosition } from '../../src/checkpoint/file/snapshot.js';
import { statesOf, type ContactState, type ContactStates } from '../../src/checkpoint/index.js';
import { decodeSnapshot, encodeSnapshot, snapshotMeta } from '../../src/checkpoint/snapshot-codec.js';
import { COLUMN_NAMES, decodeRow } from '../../src/checkpoint/state-columns.js';
import { StateTable } from '../../src/checkpoint/state-table.js';
import { attempt, failed, phoneOf, sent, tempDir } from './helpers.js';

const OWNER = { pid: process.pid, startedAt: '2025-01-01T00:00:00.000Z', command: 'run' };
const header: CheckpointEvent = { t: 'header', v: 1, job: 'job', fingerprint: 'f', content: {}, at: '2025-01-01T00:00:00.000Z' };

/** Contact `i`: attempted at its own time, then sent, failed, or left in doubt (no answer). */
function eventsOf(i: number): CheckpointEvent[] {
  const phone = phoneOf(i);
  const at = new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();
  const tried = attempt(phone, { at, line: i + 2 });
  if (i % 3 === 0) return [tried, sent(phone, i, { at })];
  if (i % 3 === 1) return [tried, failed(phone, { error: i % 2 === 0 ? 'bad request' : '400: x,"attemptAt":"2025-01-01T00:00:00.000Z"', at })];
  return [tried];
}

/** The tally a program of before counted a state under: an in-doubt one with no answer kept its attempt time in it (after the fields before it, before the follow-ups). */
function keyOfBefore(s: ContactState): string {
  const key = JSON.parse(tallyKey(s)) as Record<string, unknown>;
  const at = (s as { attemptAt?: string }).attemptAt;
  if (s.status !== 'in_doubt' || s.error !== NO_ANSWER || at === undefined) return JSON.stringify(key);
  const { followups, delivery, ...first } = key;
  return JSON.stringify({ ...first, attemptAt: at, ...(followups !== undefined && { followups }), ...(delivery !== undefined && { delivery }) });
}

/**
 * The image of `table` as a program of before wrote it: the rest texts in the JSON line, a counter
 * per attempt time (the `tally` column pointing into them), then the columns.
 */
function encodeAsBefore(table: StateTable, extra: Record<string, unknown>): Buffer {
  const image = table.image();
  const keys = [''];
  const counts = [0];
  const ids = new Map<string, number>();
  for (let row = 0; row < image.rows; row++) {
    const key = keyOfBefore(decodeRow(image.columns, row, image.rest));
    let id = ids.get(key);
    if (id === undefined) {
      id = keys.length;
      ids.set(key, id);
      keys.push(key);
      counts.push(0);
    }
    image.columns.tally[row] = id;
    counts[id] = (counts[id] ?? 0) + 1;
  }
  const pad = (n: number) => Buffer.alloc((8 - (n % 8)) % 8);
  const chunks: Buffer[] = [];
  const sizes: Array<[string, number]> = [];
  const crcs: number[] = [];
  let crc = 0;
  let tallyCrc = 0;
  for (const name of COLUMN_NAMES) {
    const column = image.columns[name];
    const bytes = Buffer.from(column.buffer, column.byteOffset, image.rows * column.BYTES_PER_ELEMENT);
    crcs.push(crc32(bytes));
    if (name === 'tally') tallyCrc = crc32(bytes);
    else crc = crc32(bytes, crc);
    chunks.push(bytes, pad(bytes.length));
    sizes.push([name, bytes.length]);
  }
  const meta = { v: 1, rows: image.rows, ...extra, header: null, rest: image.rest, others: image.others, columns: sizes, crc, crcs, tallies: { keys, counts, crc: tallyCrc } };
  const head = Buffer.from(`outreach-snapshot 1\n${JSON.stringify(meta)}\n`);
  return Buffer.concat([head, pad(head.length), ...chunks]);
}

function tableOf(contacts: number): StateTable {
  const table = new StateTable();
  for (let i = 0; i < contacts; i++) for (const e of eventsOf(i)) applyEvent(table, e);
  return table;
}

/** Each tally's count by its key. */
function counts(tallies: Iterable<{ state: ContactState; count: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const { state, count } of tallies) out.set(tallyKey(state), (out.get(tallyKey(state)) ?? 0) + count);
  return out;
}

/** Status's counts of `states` (a run started at `runSince` holding the job) as the counters give them, and as a read of every state does. */
function digests(states: ContactStates, runSince?: string): [string, string] {
  const options = { replies: new Map<string, string>(), ...(runSince !== undefined && { runSince }) };
  return [JSON.stringify(digestStates(states, options)), JSON.stringify(digestStates(statesOf(new Map(states)), options, () => undefined))];
}

const RUN_STARTS = [undefined, '2025-01-01T00:01:00.000Z', '2025-01-01T00:05:00.500Z', '2030-01-01T00:00:00.000Z'];

describe('a snapshot written now', () => {
  it('keeps its rest texts out of its JSON line and no attempt time in its counters', () => {
    const data = Buffer.concat(encodeSnapshot(tableOf(600).image(), undefined, {}));
    const meta = snapshotMeta(data);
    expect(meta?.rest).toBeUndefined();
    expect(meta?.tallies?.keys.filter((k) => k.includes('in_doubt'))).toHaveLength(1);
    expect(meta?.tallies?.keys.some((k) => k.includes(',"attemptAt":"'))).toBe(false);
    const read = meta && decodeSnapshot(data, meta);
    expect(read && new Map(read.table)).toEqual(new Map(tableOf(600)));
  });

  it('reads as none when its rest texts are damaged, cut short, or not a list of texts', () => {
    const data = Buffer.concat(encodeSnapshot(tableOf(100).image(), undefined, {}));
    const meta = snapshotMeta(data);
    if (!meta?.restText) throw new Error('no rest section');
    const flipped = Buffer.from(data);
    flipped[meta.restAt + 3] = (flipped[meta.restAt + 3] ?? 0) ^ 0x01;
    expect(decodeSnapshot(flipped, meta)).toBeUndefined();
    expect(decodeSnapshot(data.subarray(0, meta.restAt + 10), meta)).toBeUndefined();
    // A section that checks but holds no list of texts (its CRC made to match).
    const odd = Buffer.from(data);
    const text = Buffer.from(JSON.stringify([1]).padEnd(meta.restText.bytes, ' '));
    text.copy(odd, meta.restAt);
    expect(decodeSnapshot(odd, { ...meta, restText: { bytes: meta.restText.bytes, crc: crc32(text) } })).toBeUndefined();
    // A head that names no rest texts at all (neither in it nor a section): not an image.
    const line = data.toString('utf8', 0, data.indexOf(0x0a, data.indexOf(0x0a) + 1)).replace(/"restText":\{[^}]*\},/, '');
    expect(snapshotMeta(Buffer.from(`${line}\n`))).toBeUndefined();
  });
});

describe('a snapshot a program of before wrote (rest texts in its head, a counter per attempt time)', () => {
  it('reads as the table it was written from, its counters one per tally, status counting the same with a run holding the job or not', () => {
    const table = tableOf(600);
    const data = encodeAsBefore(table, {});
    const meta = snapshotMeta(data);
    expect(meta?.tallies?.keys.filter((k) => k.includes('in_doubt'))).toHaveLength(200);
    const read = meta && decodeSnapshot(data, meta);
    if (!read) throw new Error('the image did not decode');
    expect(new Map(read.table)).toEqual(new Map(table));
    expect([...read.table.tallies()].filter((t) => t.state.status === 'in_doubt')).toHaveLength(1);
    expect(counts(read.table.tallies())).toEqual(counts([...table.values()].map((state) => ({ state, count: 1 }))));
    for (const runSince of RUN_STARTS) {
      const [counted, each] = digests(read.table, runSince);
      expect(counted).toBe(each);
    }
    // Counted on as states change: a row moves from its merged counter to its new one.
    read.table.set(phoneOf(2), { ...(table.get(phoneOf(0)) as ContactState), phone: phoneOf(2) });
    const again = Buffer.concat(encodeSnapshot(read.table.image(), undefined, {}));
    const reread = decodeSnapshot(again, snapshotMeta(again) ?? meta);
    expect(reread && counts(reread.table.tallies())).toEqual(counts([...read.table.values()].map((state) => ({ state, count: 1 }))));
  });

  it('is counted from (status), the journal\'s tail folded onto it, as a read of the whole journal counts', async () => {
    const dir = await tempDir();
    const store = createFileStore(dir);
    const job = await store.openJob('job', OWNER);
    await job.record(header);
    await Promise.all(Array.from({ length: 6_000 }, (_, i) => eventsOf(i)).flatMap((events) => events.map((e) => job.record(e))));
    await job.close();
    const journal = path.join(dir, 'job', 'checkpoint.jsonl');
    // The snapshot the run left, written again as a program of before would have.
    const kept = await readSnapshot(journal);
    if (!kept) throw new Error('no snapshot was written');
    const position: JournalPosition = kept.position;
    await writeFile(snapshotFileOf(journal), encodeAsBefore(kept.table, { position, journalCheck: await journalCheck(journal, position.bytes, undefined) }));
    // The tail: a contact in doubt answered, one sent tried again and left in doubt, a new one.
    const again = await store.openJob('job', OWNER);
    await again.record(sent(phoneOf(2), 2));
    await again.record(attempt(phoneOf(3), { at: '2025-01-01T02:00:00.000Z' }));
    await again.record(attempt(phoneOf(7_000), { at: '2025-01-01T03:00:00.000Z' }));
    await again.close();
    expect((await readFile(snapshotFileOf(journal), 'utf8')).slice(0, 400)).toContain('"rest":[');

    const truth = replay((await readJournal(journal)).events);
    const view = await store.readJob('job');
    const states = view?.states as ContactStates;
    expect(Object.prototype.toString.call(states)).toBe('[object CountedStates]');
    expect(counts(states.tallies())).toEqual(counts([...truth.values()].map((state) => ({ state, count: 1 }))));
    for (const runSince of RUN_STARTS) {
      const options = { replies: new Map<string, string>(), ...(runSince !== undefined && { runSince }) };
      expect(JSON.stringify(digestStates(states, options))).toBe(JSON.stringify(digestStates(statesOf(truth), options, () => undefined)));
    }
    expect(states.get(phoneOf(5))).toEqual(truth.get(phoneOf(5)));
    expect(new Map(states)).toEqual(truth);
  });
});
