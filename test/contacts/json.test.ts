import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/contacts/index.js';
import { brief, fixture, load, loadError, tempDir } from './helpers.js';

describe('JSON: a list of objects', () => {
  const file = fixture('contacts.json');

  it('streams the entries with the line each starts on, rejecting entries that are not objects', async () => {
    const { contacts, rejects, counts } = await load([file], { defaultCountry: 'BR' });
    expect(contacts.map((c) => [c.line, c.phone, c.name])).toEqual([
      [2, '+5511987654321', 'Ana'],
      [4, '+5521998765432', 'Bruno'],
      [10, '+5531988887777', 'Carla, with "quotes" and a ] bracket'],
    ]);
    expect(rejects.map(brief)).toEqual([
      { line: 3, reason: 'not_an_object' },
      { line: 8, reason: 'not_an_object' },
      { line: 9, reason: 'phone_missing' },
    ]);
    expect(rejects[0]!.detail).toContain('a number (42)');
    expect(counts).toMatchObject({ rows: 6, contacts: 3, rejected: 3 });
  });

  it('turns primitives into strings and leaves nested objects and lists out', async () => {
    const { contacts, rejects } = await load([file], { defaultCountry: 'BR' });
    expect(contacts[0]!.vars).toEqual({ phone: '+5511987654321', name: 'Ana', age: '31', active: 'true', note: '' });
    expect(rejects[2]!.raw).toEqual({ phone: '', name: 'no phone' });
  });

  it('matches keys case-insensitively', async () => {
    const { contacts } = await load([file], { defaultCountry: 'BR' });
    expect(contacts[2]!.vars).toMatchObject({ phone: '+5531988887777', name: 'Carla, with "quotes" and a ] bracket' });
  });
});

describe('NDJSON: one object a line', () => {
  it('reads each line, ignores blank lines, rejects non-objects and duplicates', async () => {
    const { contacts, rejects } = await load([fixture('contacts.ndjson')], { defaultCountry: 'BR' });
    expect(contacts.map((c) => [c.line, c.phone])).toEqual([
      [1, '+5511987654321'],
      [3, '+5521998765432'],
    ]);
    expect(contacts[1]!.vars).toEqual({ phone: '+5521998765432', name: 'Bruno' });
    expect(rejects.map((r) => [r.line, r.reason, r.detail])).toEqual([
      [4, 'not_an_object', 'the entry is a list ([1,2]), not an object such as {"phone": "+5511987654321"}'],
      [5, 'duplicate', `same phone as ${fixture('contacts.ndjson')} line 1`],
    ]);
  });
});

describe('JSON: larger and odder lists', () => {
  let t: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    t = await tempDir();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('streams a 50,000-entry list written on one line', async () => {
    const list = Array.from({ length: 50_000 }, (_, i) => ({ phone: `+55119${70000000 + i}`, name: `Contact ${i}`, tags: ['a', { b: i }] }));
    const file = await t.write('big.json', JSON.stringify(list));
    const { contacts, counts } = await load([file]);
    expect(counts.contacts).toBe(50_000);
    expect(contacts[49_999]).toMatchObject({ line: 1, phone: '+5511970049999', name: 'Contact 49999' });
  });

  it('numbers entries of a pretty-printed list by their first line', async () => {
    const list = Array.from({ length: 3 }, (_, i) => ({ phone: `+55119${70000000 + i}`, name: `C${i}` }));
    const file = await t.write('pretty.json', JSON.stringify(list, null, 2));
    const { contacts } = await load([file]);
    expect(contacts.map((c) => c.line)).toEqual([2, 6, 10]);
  });

  it('reads an empty list, a .jsonl file, and JSON with a BOM', async () => {
    expect((await load([await t.write('empty.json', '[ ]')])).counts.rows).toBe(0);
    const jsonl = await t.write('list.jsonl', '{"phone":"+5511987654321"}\r\n{"phone":"+5511987654322"}');
    expect((await load([jsonl])).contacts.map((c) => c.line)).toEqual([1, 2]);
    const bom = await t.write('bom.json', '\ufeff[{"phone":"+5511987654321"}]');
    expect((await load([bom])).contacts).toHaveLength(1);
  });

  it('reads a JSON number as the digits it holds', async () => {
    const file = await t.write('numbers.json', '[{"phone": 5511987654321}, {"phone": 21998765432},\n {"phone": 123}]');
    const { contacts, rejects } = await load([file], { defaultCountry: 'BR' });
    // libphonenumber recognises Brazil's 55 written without its +
    expect(contacts.map((c) => c.phone)).toEqual(['+5511987654321', '+5521998765432']);
    expect(rejects.map(brief)).toEqual([{ line: 2, reason: 'phone_invalid' }]);
  });
});

describe('JSON and NDJSON nested thousands of levels deep', () => {
  let t: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    t = await tempDir();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const deepList = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  const sentence = (file: string, line: number) =>
    `${file} line ${line}: lists or objects nest more than 64 levels deep here; a contact is one object of plain values, such as {"phone": "+5511987654321"}`;

  it.each([
    ['lists 100,000 deep', `[\n{"phone":"+5511987654321"},\n${deepList(100_000)}]`],
    ['objects 100,000 deep', `[\n{"phone":"+5511987654321"},\n${deepObject(100_000)}]`],
    ['a list 100,000 deep as the whole file', `\n\n${deepList(100_001)}`],
  ])('stops a JSON list holding %s with one sentence naming the file and line', async (_what, text) => {
    const file = await t.write('deep.json', text);
    const err = await loadError([file]);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(sentence(file, 3));
    expect(err.userError).toBe(true);
  });

  it.each([
    ['a list', deepList(100_000)],
    ['an object', deepObject(100_000)],
  ])('stops an NDJSON line holding %s 100,000 deep with one sentence naming the file and line', async (_what, deep) => {
    const file = await t.write('deep.ndjson', `{"phone":"+5511987654321"}\n\n${deep}\n`);
    const err = await loadError([file]);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(sentence(file, 3));
  });

  it('still reads entries nested a few levels, and brackets inside strings do not count', async () => {
    const nested = `{"phone":"+5511987654321","meta":${deepList(60)},"note":"${'['.repeat(200)}"}`;
    const json = await t.write('ok.json', `[${nested}]`);
    const ndjson = await t.write('ok.ndjson', `${nested}\n`);
    expect((await load([json])).contacts).toHaveLength(1);
    expect((await load([ndjson])).contacts).toHaveLength(1);
  });
});
