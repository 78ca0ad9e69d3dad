import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Reject } from '../../src/contacts/types.js';
import { readRejects, writeRejects } from '../../src/report/index.js';
import { tempDir } from './helpers.js';

function reject(line: number, raw: Record<string, string>, extra: Partial<Reject> = {}): Reject {
  return { file: 'contacts.csv', line, rawPhone: raw['phone'] ?? '', reason: 'phone_invalid', detail: 'not a phone number', raw, ...extra };
}

async function rows(file: string): Promise<string[][]> {
  return parse(await readFile(file, 'utf8')) as string[][];
}

describe('writeRejects', () => {
  it('writes file,line,raw_phone,reason,detail then the union of original columns in first-seen order', async () => {
    const file = path.join(await tempDir(), 'rejects.csv');
    const count = await writeRejects(file, [
      reject(3, { phone: '123', name: 'Ana' }),
      reject(5, { name: 'Bia', phone: '', email: 'b@x.com' }, { reason: 'phone_missing', detail: 'no phone' }),
      reject(7, { phone: '+5511987654321', city: 'Recife' }, { reason: 'duplicate', detail: 'same phone as line 2' }),
    ]);
    expect(count).toBe(3);
    expect(await rows(file)).toEqual([
      ['file', 'line', 'raw_phone', 'reason', 'detail', 'phone', 'name', 'email', 'city'],
      ['contacts.csv', '3', '123', 'phone_invalid', 'not a phone number', '123', 'Ana', '', ''],
      ['contacts.csv', '5', '', 'phone_missing', 'no phone', '', 'Bia', 'b@x.com', ''],
      ['contacts.csv', '7', '+5511987654321', 'duplicate', 'same phone as line 2', '+5511987654321', '', '', 'Recife'],
    ]);
  });

  it('escapes every cell a spreadsheet would run as a formula, headers included', async () => {
    const file = path.join(await tempDir(), 'rejects.csv');
    await writeRejects(file, [
      reject(2, { phone: '=cmd|"/c calc"!A1', '@evil': '+SUM(1)', note: '-1' }, { detail: '=HYPERLINK("x")' }),
    ]);
    expect(await rows(file)).toEqual([
      ['file', 'line', 'raw_phone', 'reason', 'detail', 'phone', "'@evil", 'note'],
      ['contacts.csv', '2', `'=cmd|"/c calc"!A1`, 'phone_invalid', `'=HYPERLINK("x")`, `'=cmd|"/c calc"!A1`, "'+SUM(1)", "'-1"],
    ]);
  });

  it('heads an original column named like one of ours as "(original)"', async () => {
    const file = path.join(await tempDir(), 'rejects.csv');
    await writeRejects(file, [reject(2, { phone: 'x', reason: 'moved' })]);
    expect((await rows(file))[0]).toEqual(['file', 'line', 'raw_phone', 'reason', 'detail', 'phone', 'reason (original)']);
  });

  it('takes rejects from an async stream and writes a header-only file when there are none', async () => {
    const file = path.join(await tempDir(), 'rejects.csv');
    async function* stream(): AsyncGenerator<Reject> {
      yield reject(2, { phone: 'a' });
      yield reject(3, { phone: 'b' });
    }
    expect(await writeRejects(file, stream())).toBe(2);
    expect(await rows(file)).toHaveLength(3);

    expect(await writeRejects(file, [])).toBe(0);
    expect(await rows(file)).toEqual([['file', 'line', 'raw_phone', 'reason', 'detail']]);
  });
});

describe('writeRejects into a job folder that does not exist yet', () => {
  it('makes the folder and writes the file', async () => {
    const file = path.join(await tempDir(), 'state', 'new-job', 'rejects.csv');
    await writeRejects(file, []);
    expect((await readFile(file, 'utf8')).split('\n')[0]).toBe('file,line,raw_phone,reason,detail');
  });
});

describe('readRejects', () => {
  it('reads back what writeRejects wrote, so writing it again gives the same file (guards and (original) headings undone)', async () => {
    const dir = await tempDir();
    const first = path.join(dir, 'rejects.csv');
    const written = [
      reject(2, { phone: '=cmd|"/c calc"!A1', '@evil': '+SUM(1)', line: '9' }, { detail: '=HYPERLINK("x")' }),
      reject(5, { name: 'Bia', phone: '' }, { reason: 'phone_missing', detail: 'no phone', file: 'more.csv' }),
    ];
    await writeRejects(first, written);
    const read = await readRejects(first);
    expect(read.map((r) => [r.file, r.line, r.rawPhone, r.reason, r.detail])).toEqual([
      ['contacts.csv', 2, '=cmd|"/c calc"!A1', 'phone_invalid', '=HYPERLINK("x")'],
      ['more.csv', 5, '', 'phone_missing', 'no phone'],
    ]);
    expect(read[0]?.raw).toMatchObject({ phone: '=cmd|"/c calc"!A1', '@evil': '+SUM(1)', line: '9' });
    const again = path.join(dir, 'again.csv');
    await writeRejects(again, read);
    expect(await readFile(again, 'utf8')).toBe(await readFile(first, 'utf8'));
  });

  it('reads a missing file as none', async () => {
    expect(await readRejects(path.join(await tempDir(), 'nope.csv'))).toEqual([]);
  });
});

describe('writeRejects for a spreadsheet (--excel)', () => {
  it('writes the same rows with a byte-order mark and ";" between cells', async () => {
    const file = path.join(await tempDir(), 'rejects.xlsx.csv');
    await writeRejects(file, [reject(3, { phone: '123', name: 'Ana; Bia' })], { excel: true });
    const text = await readFile(file, 'utf8');
    expect(text.startsWith('\uFEFFfile;line;raw_phone;reason;detail;phone;name\n')).toBe(true);
    expect(parse(text.slice(1), { delimiter: ';' })).toEqual([
      ['file', 'line', 'raw_phone', 'reason', 'detail', 'phone', 'name'],
      ['contacts.csv', '3', '="123"', 'phone_invalid', 'not a phone number', '="123"', 'Ana; Bia'],
    ]);
  });
});
