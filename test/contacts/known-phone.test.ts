/**
 * The loader's known numbers (issue 36): a phone cell written as the E.164 of a contact the run
 * settled is taken as that number without the phone library's parse. Every row must come out as the
 * parse makes it: the same contacts (fields, country, row), the same rejects, duplicates and
 * warnings, in the same order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { knownNumber } from '../../src/contacts/known-phone.js';
import type { LoaderOptions } from '../../src/contacts/index.js';
import { load, tempDir } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function listOf(name: string, text: string): Promise<string> {
  const t = await tempDir();
  cleanup = t.cleanup;
  return t.write(name, text);
}

/** The load with every number of `settled` known, beside the same load parsed row by row. */
async function bothWays(files: string[], settled: readonly string[], options: LoaderOptions = {}) {
  const known = new Set(settled);
  const asked: string[] = [];
  const fast = await load(files, {
    ...options,
    known: (phone) => {
      asked.push(phone);
      return known.has(phone);
    },
  });
  const slow = await load(files, options);
  return { fast, slow, asked };
}

const SETTLED = ['+5511970000001', '+5511970000002', '+5511970000003', '+5511970000004', '+5511970000005', '+5511970000006'];

describe('a phone cell written as a settled contact\'s number', () => {
  it('reads every row as the parse does: E.164, national form, spaces, duplicates, invalid rows, a last_inbound_at warning', async () => {
    const file = await listOf(
      'contacts.csv',
      [
        'phone,name,coupon,last_inbound_at',
        '+5511970000001,Ana,BF1,', // known, E.164
        '(011) 97000-0002,Bia,BF2,', // known number, national form: parsed
        ' +5511970000003 ,Caio,BF3,', // known, spaces around it
        '+55 11 97000-0004,Duda,BF4,', // known number, spaced inside: parsed
        '+5511970000001,Again,BF5,', // known, a duplicate of line 2
        '11970000002,Twice,BF6,', // a duplicate of line 3, written otherwise
        '+5511970000009,New,BF7,', // not known: parsed
        '12345,Bad,BF8,', // invalid
        '+5511970000005,Eva,BF9,yesterday', // known, unreadable last_inbound_at: a warning
        '+5511970000006,Fabi,BF10,2026-11-20T10:00:00Z', // known
        '+551191000000,Old,BF11,', // an old 8-digit mobile: invalid
        '+5511970000009,Dup,BF12,', // duplicate of a parsed one, written as its E.164
        '+5511970000006,Three', // ragged
      ].join('\n'),
    );
    const { fast, slow, asked } = await bothWays([file], SETTLED, { defaultCountry: 'BR' });
    expect(fast).toEqual(slow);
    expect(fast.contacts.map((c) => [c.line, c.phone, c.country])).toEqual([
      [2, '+5511970000001', 'BR'],
      [3, '+5511970000002', 'BR'],
      [4, '+5511970000003', 'BR'],
      [5, '+5511970000004', 'BR'],
      [8, '+5511970000009', 'BR'],
      [10, '+5511970000005', 'BR'],
      [11, '+5511970000006', 'BR'],
    ]);
    expect(fast.rejects.map((r) => [r.line, r.reason])).toEqual([
      [6, 'duplicate'],
      [7, 'duplicate'],
      [9, 'phone_invalid'],
      [12, 'phone_invalid'],
      [13, 'duplicate'],
      [14, 'ragged_row'],
    ]);
    // Only cells written as E.164 are looked up: the others go to the parse without asking.
    expect(asked).toEqual(['+5511970000001', '+5511970000003', '+5511970000001', '+5511970000009', '+5511970000005', '+5511970000006', '+551191000000', '+5511970000009']);
  });

  it('reads a country column the same way: a known number of another country than its row is a mismatch', async () => {
    const file = await listOf(
      'contacts.csv',
      ['phone;name;country', '+5511970000001;Ana;BR', '+5511970000002;Bia;Portugal', '+351912345678;Rui;PT', '+5511970000003;Caio;'].join('\n'),
    );
    const { fast, slow } = await bothWays([file], [...SETTLED, '+351912345678'], { defaultCountry: 'BR', columns: { country: 'country' } });
    expect(fast).toEqual(slow);
    expect(fast.rejects.map((r) => [r.line, r.reason])).toEqual([[3, 'phone_country_mismatch']]);
    expect(fast.contacts.map((c) => c.country)).toEqual(['BR', 'PT', 'BR']);
  });

  it('reads JSON entries the same way', async () => {
    const file = await listOf(
      'contacts.json',
      `[\n${[{ phone: '+5511970000001', name: 'Ana' }, { phone: '011 97000-0002', name: 'Bia' }, { phone: '+5511970000001', name: 'Again' }, { phone: 'x' }].map((e) => JSON.stringify(e)).join(',\n')}\n]\n`,
    );
    const { fast, slow } = await bothWays([file], SETTLED, { defaultCountry: 'BR' });
    expect(fast).toEqual(slow);
    expect(fast.contacts.map((c) => c.name)).toEqual(['Ana', 'Bia']);
    expect(fast.rejects.map((r) => r.reason)).toEqual(['duplicate', 'phone_invalid']);
  });

  it('leaves to the parse a number of a calling code countries share (+1, +44), one none holds (+800), and every row when require_mobile is set', async () => {
    const file = await listOf('contacts.csv', ['phone,name', '+12025550123,Us', '+447911123456,Uk', '+80012345678,Free', '+5511970000001,Ana', '+551133334444,Landline'].join('\n'));
    const settled = ['+12025550123', '+447911123456', '+80012345678', '+5511970000001', '+551133334444'];
    const shared = await bothWays([file], settled, { defaultCountry: 'BR' });
    expect(shared.fast).toEqual(shared.slow);
    expect(shared.fast.contacts.map((c) => c.phone)).toEqual(settled);
    for (const phone of ['+12025550123', '+447911123456', '+80012345678']) expect(knownNumber(phone, () => true)).toBeUndefined();
    const mobile = await bothWays([file], settled, { defaultCountry: 'BR', requireMobile: true });
    expect(mobile.fast).toEqual(mobile.slow);
    expect(mobile.asked).toEqual([]);
    expect(mobile.fast.rejects.map((r) => [r.line, r.reason])).toEqual([[6, 'phone_not_mobile']]);
  });

  it('takes a known number as written even where the parse now reads it as another (an older version\'s key): the row stays the contact that was messaged', () => {
    // The parse reads Mexico's retired mobile 1 as the number without it (+525512345678); a run of an
    // older version that sent +5215512345678 keeps that contact, so its row is not a new person to message.
    expect(knownNumber('+5215512345678', (p) => p === '+5215512345678')).toEqual({ number: '+5215512345678', country: 'MX', countryCallingCode: '52' });
    expect(knownNumber('+5215512345678', () => false)).toBeUndefined();
    expect(knownNumber('5511970000001', () => true)).toBeUndefined();
    expect(knownNumber('+55 11 97000-0001', () => true)).toBeUndefined();
    expect(knownNumber('+0551197000000', () => true)).toBeUndefined();
  });
});
