import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerFile } from '../../src/checkpoint/file/ledger-file.js';
import { lineAtOrBefore, recentLedgerFile } from '../../src/checkpoint/file/recent-ledger.js';
import { LedgerIndex, WindowIndex, type LedgerEntry } from '../../src/checkpoint/ledger.js';
import { phoneOf, tempDir } from './helpers.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-03-02T12:00:00.000Z');
const SINCE = NOW - 24 * HOUR;

/** A ledger line as the store writes it. */
function line(i: number, at: number, more: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ v: 1, phone: phoneOf(i % 40), at: new Date(at).toISOString(), job: i % 3 === 0 ? 'promo' : 'winter', outside_window: i % 5 !== 0, id: `e-${i}`, company: 1, ...more })}\n`;
}

/** The whole ledger's counts and the recent read's, from each of `froms`. */
async function both(file: string, froms: readonly number[], company?: number) {
  const whole = await ledgerFile(file, company)();
  const recent = await recentLedgerFile(file, SINCE, company);
  const counts = (l: { uniqueOutsideWindowSince(s: number): number; nthOutsideWindowSince(s: number, n: number): number | undefined }) =>
    froms.map((s) => [l.uniqueOutsideWindowSince(s), ...Array.from({ length: 6 }, (_, n) => l.nthOutsideWindowSince(s, n))]);
  return { whole: counts(whole), recent: counts(recent), used: recent.uniqueOutsideWindowSince(SINCE) };
}

describe("the ledger's rolling window, read from its recent lines", () => {
  it('counts as the whole ledger does, with lines out of order near the window\'s start, an old import appended last, take-backs and other companies', async () => {
    const file = path.join(await tempDir(), 'ledger.jsonl');
    let text = '';
    // Months of history, then the last day; lines near the start written out of order.
    for (let i = 0; i < 400; i++) text += line(i, SINCE - 90 * 24 * HOUR + i * 5 * HOUR);
    const near = [SINCE - 2, SINCE + 3, SINCE - 1, SINCE, SINCE + 1, SINCE - HOUR, SINCE + 2 * HOUR, SINCE - 1000];
    near.forEach((t, k) => (text += line(400 + k, t)));
    for (let i = 500; i < 560; i++) text += line(i, SINCE + (i - 500) * 20 * 60_000);
    // A take-back of an entry in the window (after it), one of an entry before it, one written before its entry.
    text += `${JSON.stringify({ v: 1, op: 'take_back', phone: phoneOf(510 % 40), at: new Date(SINCE + 10 * 20 * 60_000).toISOString(), job: 'promo', id: 'e-510', company: 1 })}\n`;
    text += `${JSON.stringify({ v: 1, op: 'take_back', phone: phoneOf(3), at: new Date(SINCE - 90 * 24 * HOUR + 3 * 5 * HOUR).toISOString(), job: 'promo', id: 'e-3', company: 1 })}\n`;
    text += `${JSON.stringify({ v: 1, op: 'take_back', phone: phoneOf(600 % 40), at: new Date(NOW - HOUR).toISOString(), job: 'promo', id: 'e-600', company: 1 })}\n`;
    text += line(600, NOW - HOUR);
    // Another company's, a time written otherwise (no milliseconds, an offset), a nested object, a line that is not JSON.
    text += line(601, NOW - 2 * HOUR, { company: 2 });
    text += `${JSON.stringify({ v: 1, phone: phoneOf(41), at: '2026-03-02T10:00:00+01:00', job: 'promo', outside_window: true, id: 'e-602' })}\n`;
    text += `${JSON.stringify({ v: 1, phone: phoneOf(42), at: new Date(SINCE - HOUR).toISOString().replace('.000Z', 'Z'), job: 'promo', outside_window: true, id: 'e-603' })}\n`;
    text += `${JSON.stringify({ v: 1, phone: phoneOf(43), at: new Date(NOW - 3 * HOUR).toISOString(), job: 'promo', outside_window: true, id: 'e-604', extra: { at: '2000-01-01T00:00:00.000Z' } })}\n`;
    text += 'not json\n';
    // An import of an older folder appended last: old lines, and lines of the window, after the newest.
    for (let i = 700; i < 740; i++) text += line(i, i % 2 === 0 ? SINCE - 50 * HOUR : SINCE + (i - 700) * HOUR);
    writeFileSync(file, text);
    const froms = [SINCE, SINCE + 1, SINCE + 2, SINCE + HOUR, NOW - 2 * HOUR, NOW];
    for (const company of [undefined, 1, 2]) {
      const { whole, recent } = await both(file, froms, company);
      expect(recent, `company ${String(company)}`).toEqual(whole);
    }
    expect((await both(file, froms, 1)).used).toBeGreaterThan(20);
  });

  it('leaves a torn last line out, as the whole ledger does, and counts it once it is whole', async () => {
    const file = path.join(await tempDir(), 'ledger.jsonl');
    writeFileSync(file, line(1, NOW - HOUR) + line(2, NOW - 2 * HOUR).slice(0, 40));
    expect((await both(file, [SINCE])).used).toBe(1);
    expect((await both(file, [SINCE])).recent).toEqual((await both(file, [SINCE])).whole);
    appendFileSync(file, `${line(2, NOW - 2 * HOUR).slice(40)}`);
    expect((await both(file, [SINCE])).used).toBe(2);
  });

  it('counts none in an empty ledger or one never written', async () => {
    const dir = await tempDir();
    expect((await recentLedgerFile(path.join(dir, 'ledger.jsonl'), SINCE)).uniqueOutsideWindowSince(SINCE)).toBe(0);
    writeFileSync(path.join(dir, 'ledger.jsonl'), '');
    const { whole, recent, used } = await both(path.join(dir, 'ledger.jsonl'), [SINCE]);
    expect(used).toBe(0);
    expect(recent).toEqual(whole);
  });

  it('tells a line at or before the start by its text only when its one time is written as the ledger writes it', () => {
    const since = new Date(SINCE).toISOString();
    const at = (t: string, more = '') => `{"v":1,"phone":"+1","at":"${t}","job":"j"${more}}`;
    expect(lineAtOrBefore(at(new Date(SINCE - 1).toISOString()), since)).toBe(true);
    expect(lineAtOrBefore(at(since), since)).toBe(true);
    expect(lineAtOrBefore(at(new Date(SINCE + 1).toISOString()), since)).toBe(false);
    expect(lineAtOrBefore(at('2020-01-01T00:00:00Z'), since)).toBe(false);
    expect(lineAtOrBefore(at('2020-01-01T00:00:00.000Z', ',"x":{"a":1}'), since)).toBe(false);
    expect(lineAtOrBefore(at('2020-01-01T00:00:00.000Z', ',"at":"2030-01-01T00:00:00.000Z"'), since)).toBe(false);
    expect(lineAtOrBefore('{"v":1,"job":"\\"at\\":\\"2020-01-01T00:00:00.000Z\\""}', since)).toBe(false);
  });
});

describe("the window's own fold (WindowIndex)", () => {
  it('counts as the whole ledger\'s index does, whatever the entries and take-backs and their order', () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor(seed / 65_536) % n;
    };
    for (let round = 0; round < 100; round++) {
      const whole = new LedgerIndex();
      const window = new WindowIndex();
      const written: LedgerEntry[] = [];
      for (let k = 0; k < 60; k++) {
        // A few phones, jobs, times and ids, so that entries repeat, share names across phones and are taken back before or after.
        const entry: LedgerEntry = {
          phone: phoneOf(random(6)),
          at: SINCE + (random(8) - 3) * HOUR,
          job: random(2) === 0 ? 'promo' : 'winter',
          outsideWindow: random(4) !== 0,
          ...(random(3) !== 0 && { id: `e-${random(12)}` }),
        };
        const old = written[random(written.length + 1)];
        if (random(5) === 0 && old) {
          whole.takeBack(old);
          window.takeBack(old);
        } else if (random(7) === 0) {
          whole.takeBack(entry);
          window.takeBack(entry);
        } else {
          whole.add(entry);
          window.add(entry);
          written.push(entry);
        }
        if (random(10) === 0) {
          for (const since of [SINCE - 4 * HOUR, SINCE, SINCE + HOUR]) {
            expect(window.uniqueOutsideWindowSince(since)).toBe(whole.uniqueOutsideWindowSince(since));
            for (let n = -1; n < 5; n++) expect(window.nthOutsideWindowSince(since, n)).toBe(whole.nthOutsideWindowSince(since, n));
          }
        }
      }
      for (const since of [-Infinity, SINCE - 4 * HOUR, SINCE, SINCE + 2 * HOUR, NOW]) {
        expect(window.uniqueOutsideWindowSince(since), `round ${round}`).toBe(whole.uniqueOutsideWindowSince(since));
        for (let n = 0; n < 7; n++) expect(window.nthOutsideWindowSince(since, n)).toBe(whole.nthOutsideWindowSince(since, n));
      }
    }
  });
});
