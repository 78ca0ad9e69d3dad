import { describe, expect, it } from 'vitest';
import { Dedupe } from '../../src/contacts/dedupe.js';
import { brief, fixture, load, tempDir } from './helpers.js';

describe('dedupe on E.164', () => {
  it('rejects a later row with the same phone in the same file, naming the first', async () => {
    const a = fixture('duplicates-a.csv');
    const { contacts, rejects } = await load([a], { defaultCountry: 'BR' });
    expect(contacts.map((c) => [c.line, c.phone])).toEqual([
      [2, '+5511987654321'],
      [3, '+5511991234567'],
    ]);
    expect(rejects.map((r) => [r.line, r.reason, r.detail, r.rawPhone])).toEqual([
      [4, 'duplicate', `same phone as ${a} line 2`, '011 98765-4321'],
    ]);
  });

  it('rejects a repeated phone of a JSON list written on one line, though both entries start on line 1', async () => {
    const t = await tempDir();
    try {
      const file = await t.write('one-line.json', '[{"phone":"+5511987654321","name":"A"},{"phone":"+5511987654321","name":"B"},{"phone":"+5511987654322","name":"C"}]');
      const { contacts, rejects, counts } = await load([file], { defaultCountry: 'BR' });
      expect(contacts.map((c) => [c.name, c.phone])).toEqual([
        ['A', '+5511987654321'],
        ['C', '+5511987654322'],
      ]);
      expect(rejects.map((r) => [r.line, r.reason, r.detail])).toEqual([[1, 'duplicate', `same phone as ${file} line 1`]]);
      expect(counts).toMatchObject({ rows: 3, contacts: 2, rejected: 1 });
    } finally {
      await t.cleanup();
    }
  });

  it('dedupes across files in the order given: the first file wins', async () => {
    const a = fixture('duplicates-a.csv');
    const b = fixture('duplicates-b.csv');
    const { contacts, rejects, counts } = await load([a, b], { defaultCountry: 'BR' });
    expect(contacts.map((c) => [c.file, c.line, c.name])).toEqual([
      [a, 2, 'Ana'],
      [a, 3, 'Bruno'],
      [b, 3, 'Carla'],
    ]);
    expect(rejects.map((r) => [r.file, r.line, r.reason, r.detail])).toEqual([
      [a, 4, 'duplicate', `same phone as ${a} line 2`],
      [b, 2, 'duplicate', `same phone as ${a} line 3`],
      [b, 4, 'duplicate', `same phone as ${a} line 2`],
    ]);
    expect(counts).toEqual({ rows: 6, contacts: 3, rejected: 3, byReason: { duplicate: 3 }, warnings: 0, warningsByKind: {} });

    const reversed = await load([b, a], { defaultCountry: 'BR' });
    expect(reversed.contacts.map((c) => [c.file, c.name])).toEqual([
      [b, 'Bruno from B'],
      [b, 'Carla'],
      [b, 'Ana from B'],
    ]);
  });

  it('dedupes across formats (CSV then NDJSON)', async () => {
    const { rejects } = await load([fixture('duplicates-a.csv'), fixture('contacts.ndjson')], { defaultCountry: 'BR' });
    expect(rejects.filter((r) => r.file === fixture('contacts.ndjson')).map(brief)).toEqual([
      { line: 1, reason: 'duplicate' },
      { line: 4, reason: 'not_an_object' },
      { line: 5, reason: 'duplicate' },
    ]);
  });

  it('reads a file given twice (two overlapping globs) once', async () => {
    const a = fixture('duplicates-a.csv');
    const { counts } = await load([a, `./${a}`], { defaultCountry: 'BR' });
    expect(counts.rows).toBe(3);
  });

  it('an invalid phone is not a duplicate of anything', async () => {
    const { rejects } = await load([fixture('multiline.csv'), fixture('multiline.csv').replace('multiline', './multiline')]);
    expect(rejects.map(brief)).toEqual([{ line: 11, reason: 'phone_invalid' }]);
  });
});

describe('Dedupe', () => {
  it('remembers a million phones, exactly, across growth of its table', () => {
    const d = new Dedupe(['a.csv', 'b.csv', 'c.csv']);
    let seen = 0;
    for (let i = 0; i < 1_000_000; i++) if (d.firstSeen(`+55119${70000000 + i}`, i % 3, i + 2) !== undefined) seen++;
    expect(seen).toBe(0);
    expect(d.size).toBe(1_000_000);
    expect(d.firstSeen('+5511970000000', 0, 9)).toEqual({ file: 'a.csv', line: 2 });
    expect(d.firstSeen('+5511970999999', 2, 9)).toEqual({ file: 'a.csv', line: 1_000_001 });
    expect(d.firstSeen('+5511970123456', 1, 9)).toEqual({ file: 'a.csv', line: 123_458 });
    expect(d.firstSeen('+5511970123457', 1, 9)).toEqual({ file: 'b.csv', line: 123_459 });
    // 15 digits, the longest E.164
    expect(d.firstSeen('+999999999999999', 0, 1)).toBeUndefined();
    expect(d.firstSeen('+999999999999998', 0, 2)).toBeUndefined();
    expect(d.firstSeen('+999999999999999', 1, 3)).toEqual({ file: 'a.csv', line: 1 });
  });
});
