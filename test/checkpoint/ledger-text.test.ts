import { describe, expect, it } from 'vitest';
import { ledgerRecord, readLedgerLine, takeBackRecord, type LedgerEntry } from '../../src/checkpoint/ledger.js';
import { parseLine } from '../../src/checkpoint/json-line.js';
import { readLedgerLines, type LedgerText } from '../../src/checkpoint/ledger-text.js';

/** The entry JSON.parse and readLedgerLine read of a line (the general path), as readLedgerText gives it. */
function general(line: string): { op: string; entry: LedgerEntry; holder?: unknown } | undefined {
  const value = parseLine(line);
  const read = value && readLedgerLine(value);
  return read && { ...read, ...(typeof value?.holder === 'string' && read.op === 'add' && { holder: value.holder }) };
}

/** Each line of `text` in order: its read when of the writer's shape, its text otherwise. */
function lines(text: string): Array<LedgerText | string> {
  const out: Array<LedgerText | string> = [];
  readLedgerLines(text, (read) => out.push(read), (line) => out.push(line));
  return out;
}

/** The shaped read of `line` placed among others (its own place in a text, its newline after it), without its time's text; undefined when it is left to the general path. */
function shaped(line: string) {
  const around = '{"v":1,"phone":"+1","at":"2026-01-01T00:00:00.000Z","job":"x","outside_window":true}\n';
  const read = lines(`${around}${line}\n${around}`);
  expect(read).toHaveLength(3);
  const middle = read[1];
  if (middle === undefined || typeof middle === 'string') {
    expect(middle).toBe(line);
    return undefined;
  }
  const { at: _text, ...rest } = middle;
  return rest;
}

const entries: LedgerEntry[] = [
  { phone: '+5511987654321', at: Date.parse('2026-03-01T12:00:00.000Z'), job: 'black-friday', outsideWindow: true },
  { phone: '+5511987654321', at: Date.parse('2026-03-01T12:00:00.001Z'), job: 'black-friday', outsideWindow: false, id: '3f9c-1', company: 1 },
  { phone: '+5511987654321', at: Date.parse('1999-12-31T23:59:59.999Z'), job: 'promoção de verão ✓', outsideWindow: true, id: 'e', channelId: 10, message: 'a1b2', state: 's-1', company: 0 },
  { phone: '+1', at: Date.parse('2026-03-01T12:00:00.000Z'), job: 'j', outsideWindow: true, channelId: 123456789012345 },
  { phone: 'not a phone', at: Date.parse('2026-03-01T12:00:00.000Z'), job: '', outsideWindow: false, message: '', state: '' },
];

describe('a ledger line read in the shape the store writes', () => {
  it('reads each entry, take-back and holder\'s use the store writes as JSON.parse and readLedgerLine do', () => {
    for (const entry of entries) {
      for (const line of [JSON.stringify(ledgerRecord(entry)), JSON.stringify({ ...ledgerRecord(entry), holder: 'h-1' }), JSON.stringify(takeBackRecord(entry))]) {
        expect(shaped(line), line).toEqual(general(line));
        expect(shaped(line), line).not.toBeUndefined();
      }
    }
  });

  it('leaves every other line to the general path, which reads it the same or not at all', () => {
    const record = JSON.stringify(ledgerRecord(entries[1] as LedgerEntry));
    const odd = [
      // escapes, spaces, another order, another key, another version
      record.replace('black-friday', 'black\\"friday'),
      record.replace('black-friday', 'black\\u0041friday'),
      record.replace('"job":', ' "job":'),
      record.replace('{"v":1,', '{"v":2,'),
      JSON.stringify({ at: '2026-03-01T12:00:00.000Z', v: 1, phone: '+1', job: 'j', outside_window: true }),
      record.replace('"company":1', '"company":1,"extra":true'),
      record.replace('"company":1', '"company":-1'),
      record.replace('"company":1', '"company":1.5'),
      record.replace('"company":1', '"company":01'),
      record.replace('"company":1', '"company":1234567890123456'),
      // a time written otherwise, or not a time
      record.replace('12:00:00.001Z', '12:00:00Z'),
      record.replace('2026-03-01T12:00:00.001Z', '2026-13-01T12:00:00.001Z'),
      // a take-back with an entry's own field, an entry without its window, a raw control character, a torn line
      JSON.stringify({ ...takeBackRecord(entries[0] as LedgerEntry), outside_window: true }),
      record.replace(',"outside_window":false', ''),
      record.replace('black-friday', 'black\tfriday'),
      record.slice(0, 60),
      '',
      'not json',
    ];
    for (const line of odd) {
      const read = shaped(line);
      if (read !== undefined) expect(read, line).toEqual(general(line));
    }
    expect(odd.filter((line) => shaped(line) !== undefined)).toEqual([]);
  });

  it('gives each line once, in order, whatever lines come around it', () => {
    const record = JSON.stringify(ledgerRecord(entries[0] as LedgerEntry));
    const text = ['not json', record, `${record}x`, record, '', record.replace('"v":1', '"v":2'), record].join('\n') + '\n';
    const read = lines(text);
    expect(read.map((r) => (typeof r === 'string' ? r : 'shaped'))).toEqual(['not json', 'shaped', `${record}x`, 'shaped', '', record.replace('"v":1', '"v":2'), 'shaped']);
    expect(read.filter((r): r is LedgerText => typeof r !== 'string').map((r) => r.entry)).toEqual([entries[0], entries[0], entries[0]]);
    expect(read.filter((r): r is LedgerText => typeof r !== 'string').map((r) => r.at)).toEqual(Array(3).fill('2026-03-01T12:00:00.000Z'));
  });
});
