import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEvent } from '../../src/checkpoint/apply-event.js';
import { ColumnFold } from '../../src/checkpoint/column-fold.js';
import { foldJournal } from '../../src/checkpoint/file/fold-journal.js';
import { loadState } from '../../src/checkpoint/file/load-state.js';
import { JournalBytes, skipValue } from '../../src/checkpoint/journal-bytes.js';
import { StateTable } from '../../src/checkpoint/state-table.js';
import type { StateTally } from '../../src/checkpoint/state-tally.js';
import type { HeaderEvent } from '../../src/checkpoint/types.js';
import { seededRandom } from '../../src/sim/random.js';
import { isoMs, isoMsBytes, IsoBytesReader } from '../../src/time/iso.js';
import { tempDir } from './helpers.js';
import { journalText, minusZeroAsZero } from './journal-text.js';

function sortedTallies(t: StateTally[]): string[] {
  const sums = new Map<string, number>();
  for (const { state, count } of t) sums.set(JSON.stringify(state), (sums.get(JSON.stringify(state)) ?? 0) + count);
  return [...sums].map(([k, n]) => `${n} ${k}`).sort();
}

/** The journal folded the general way (every line through JSON.parse): into columns by `apply`, and by the one reducer. */
async function generalFolds(file: string) {
  const fold = new ColumnFold(16);
  let header: HeaderEvent | undefined;
  const read = await foldJournal(file, { byte: 0, line: 0 }, (event) => fold.apply(event), (event) => (header = event));
  const reducer = new StateTable();
  await foldJournal(file, { byte: 0, line: 0 }, (event) => applyEvent(reducer, event), () => undefined);
  return { columns: fold.table(), reducer, header, read };
}

describe('a whole journal folded from its bytes', () => {
  for (const [seed, phones] of [
    [1, 200],
    [2, 200],
    [3, 400],
    [4, 400],
    [5, 800],
    [6, 800],
    [7, 1500],
    [8, 3000],
  ] as const) {
    it(`gives every contact, the counters, the position and the torn lines the general fold gives (journal ${seed}, ${phones} contacts)`, async () => {
      const file = path.join(await tempDir(), 'checkpoint.jsonl');
      await writeFile(file, journalText(seed, phones));
      const loaded = await loadState(file);
      const general = await generalFolds(file);
      expect(new Map(loaded.state)).toEqual(new Map(general.columns));
      // The one reducer's table too, but for a line of -0 (never written; columns keep it as 0, whichever way it is folded).
      expect(minusZeroAsZero(new Map(loaded.state))).toEqual(minusZeroAsZero(new Map(general.reducer)));
      expect([...loaded.state.keys()]).toEqual([...general.columns.keys()]);
      expect(sortedTallies(loaded.state.tallies())).toEqual(sortedTallies(general.columns.tallies()));
      expect(sortedTallies(loaded.state.tallies())).toEqual(sortedTallies(general.reducer.tallies()));
      expect(loaded.position).toEqual({ bytes: general.read.endByte, lines: general.read.endLine, events: general.read.events });
      expect(loaded.tornLineNumbers).toEqual(general.read.tornLineNumbers);
      expect(loaded.header).toEqual(general.header);
    });
  }

  it('gives the same across the reads of a journal longer than one read (lines split between them)', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const text = journalText(9, 9000);
    expect(Buffer.byteLength(text)).toBeGreaterThan(2 << 20);
    await writeFile(file, text);
    const loaded = await loadState(file);
    const general = await generalFolds(file);
    expect(new Map(loaded.state)).toEqual(new Map(general.columns));
    expect(sortedTallies(loaded.state.tallies())).toEqual(sortedTallies(general.columns.tallies()));
    expect(loaded.position).toEqual({ bytes: general.read.endByte, lines: general.read.endLine, events: general.read.events });
    expect(loaded.tornLineNumbers).toEqual(general.read.tornLineNumbers);
  });

  it('reads the lines of a run (attempt, sent or failed, delivery reads, a skip) without the general path', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 300; i++) {
      const phone = `+5511${900_000_000 + i}`;
      const at = new Date(Date.parse('2026-11-21T10:00:00.000Z') + i * 7).toISOString();
      if (i % 10 === 9) {
        lines.push(JSON.stringify({ t: 'skipped', phone, reason: 'opted_out', line: i + 2, at }));
        continue;
      }
      lines.push(JSON.stringify({ t: 'attempt', phone, via: 'start', action: 'template', line: i + 2, ...(i % 2 === 0 && { content: { template: { name: 'promo', language: 'pt_BR', variables: { '1': 'Conceição' } } } }), at }));
      if (i % 10 === 8) lines.push(JSON.stringify({ t: 'failed', phone, via: 'start', action: 'template', status: 502, retryable: true, conversation_id: String(i), client_id: String(i), error: '502: (#131026) Message undeliverable', at }));
      else {
        lines.push(JSON.stringify({ t: 'sent', phone, via: 'start', action: 'template', conversation_id: String(1000 + i), ...(i % 3 !== 0 && { client_id: String(5000 + i) }), message_id: String(9000 + i), at }));
        lines.push(JSON.stringify({ t: 'delivery', phone, status: 'delivered', delivered_at: at, at }));
        lines.push(JSON.stringify({ t: 'delivery', phone, status: 'read', delivered_at: at, read_at: at, at }));
      }
    }
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    await writeFile(file, `${lines.join('\n')}\n`);
    const fold = new ColumnFold();
    const bytes = new JournalBytes(fold);
    let general = 0;
    const read = await foldJournal(file, { byte: 0, line: 0 }, () => (general += 1), () => undefined, (buf, start, end) => bytes.take(buf, start, end));
    expect(general).toBe(0);
    expect(read.events).toBe(lines.length);
    const loaded = await loadState(file);
    const reference = await generalFolds(file);
    expect(new Map(loaded.state)).toEqual(new Map(reference.reducer));
  });

  it('refuses a journal of a newer format as the general fold does', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    await writeFile(file, `{"t":"attempt","phone":"+5511900000001","via":"start","action":"template","at":"2026-11-21T10:00:00.000Z"}\n{"t":"header","v":2,"job":"x","fingerprint":"f","content":{},"at":"2026-11-21T10:00:00.000Z"}\n`);
    await expect(loadState(file)).rejects.toThrow(/checkpoint format 2/);
  });
});

describe('reading an ISO time from bytes', () => {
  it('gives the ms isoMs gives for the same text, and -1 where it gives none', () => {
    const r = seededRandom(11);
    const reader = new IsoBytesReader();
    const texts: string[] = ['2024-02-29T23:59:59.999Z', '2023-02-29T00:00:00.000Z', '1970-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z', '2026-11-21T10:00:00Z', '2026-13-01T00:00:00.000Z', '2026-00-10T00:00:00.000Z', '2026-04-31T00:00:00.000Z', '2026-11-21T23:60:00.000Z', '2026-11-21 10:00:00.000Z', '2026-11-21T10:00:00.000z', '2026-11-21T10:00:00.-00Z', '+02026-11-21T10:00:00.00Z'];
    for (let i = 0; i < 20_000; i++) {
      const ms = Math.floor(r() * 253_402_300_800_000);
      const text = new Date(ms).toISOString();
      texts.push(text);
      // A byte of it changed: a digit, a separator, something else.
      const at = Math.floor(r() * text.length);
      texts.push(text.slice(0, at) + String.fromCharCode(32 + Math.floor(r() * 95)) + text.slice(at + 1));
    }
    for (const text of texts) {
      const buf = Buffer.from(`"${text}"`, 'latin1');
      const expected = isoMs(text) ?? -1;
      expect(isoMsBytes(buf, 1), text).toBe(expected);
      expect(reader.read(buf, 1), text).toBe(expected);
    }
    expect(isoMsBytes(Buffer.from('2026-11-21T10:00:00.000'), 0)).toBe(-1);
  });
});

describe('skipping a JSON value in bytes', () => {
  it('passes a value only where JSON.parse reads one, and every compact value JSON.stringify writes', () => {
    const r = seededRandom(12);
    const values: unknown[] = [0, -1.5e-7, 'ação "x" \\ \n\u0001 🚀', true, false, null, [], {}, [1, [2, [3]]], { a: { b: ['c', { d: null }] } }, { '': '' }];
    const texts: string[] = [];
    for (const v of values) texts.push(JSON.stringify(v));
    const alphabet = ['{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '-', '.', 'e', '+', 't', 'r', 'n', 'f', 'a', ' ', '\t', '\u0001', 'é', 'x'];
    for (let i = 0; i < 20_000; i++) {
      const base = pick(texts.slice(0, values.length));
      let text = base;
      for (let k = 1 + Math.floor(r() * 3); k > 0; k--) {
        const at = Math.floor(r() * (text.length + 1));
        const c = alphabet[Math.floor(r() * alphabet.length)] ?? '';
        text = r() < 0.4 ? text.slice(0, at) + c + text.slice(at) : r() < 0.5 ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + c + text.slice(at + 1);
      }
      texts.push(text);
    }
    function pick(xs: string[]): string {
      return xs[Math.floor(r() * xs.length)] ?? '';
    }
    let accepted = 0;
    for (const text of texts) {
      const buf = Buffer.from(text);
      const end = skipValue(buf, 0, buf.length, 32);
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      if (end === buf.length) {
        accepted += 1;
        expect(parses, text).toBe(true);
      } else if (parses && !/^\s/.test(text) && !/\s$/.test(text)) {
        expect(end, text).toBe(buf.length);
      }
    }
    for (const v of values) expect(skipValue(Buffer.from(JSON.stringify(v)), 0, Buffer.byteLength(JSON.stringify(v)), 32)).toBe(Buffer.byteLength(JSON.stringify(v)));
    expect(accepted).toBeGreaterThan(values.length);
    // Deeper than allowed: left to JSON.parse.
    const deep = Buffer.from(`${'['.repeat(33)}${']'.repeat(33)}`);
    expect(skipValue(deep, 0, deep.length, 32)).toBe(-1);
  });
});
