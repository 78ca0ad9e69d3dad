import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/contacts/index.js';
import { brief, fixture, load, loadError, tempDir } from './helpers.js';

const columns = { country: 'country', language: 'language' };

describe('a mixed Brazilian and Mexican list with a country column (the issue\'s "done when")', () => {
  const file = fixture('latam-mixed.csv');

  it('reads each national number by its row\'s country, keeps international ones, and rejects the mismatch', async () => {
    const { contacts, rejects, counts } = await load([file], { defaultCountry: 'BR', columns });
    expect(contacts.map((c) => [c.line, c.phone, c.country, c.language])).toEqual([
      [2, '+525574752553', 'MX', 'es_MX'], // national, ISO code: was +555574752553 with default_country alone
      [3, '+523312345678', 'MX', 'es_MX'], // international, name with an accent
      [4, '+528181234567', 'MX', 'es_MX'], // national, name in lower case without the accent
      [5, '+5511987654321', 'BR', 'pt_BR'],
      [6, '+5521998765432', 'BR', 'pt_BR'], // Portuguese name
      [7, '+5531991234567', 'BR', 'pt'], // English name
    ]);
    expect(rejects).toEqual([
      {
        file,
        line: 8,
        rawPhone: '+55 11 91234-5678',
        reason: 'phone_country_mismatch',
        detail: 'the number +5511912345678 is from Brazil (BR, +55) but the country column says Mexico (MX, +52); correct the country or the number',
        raw: { phone: '+55 11 91234-5678', name: 'Diego', country: 'MX', language: 'es_MX' },
      },
    ]);
    expect(counts).toEqual({ rows: 7, contacts: 6, rejected: 1, byReason: { phone_country_mismatch: 1 }, warnings: 0, warningsByKind: {} });
  });

  it('without the country column, reads every national number as default_country\'s (the bug of the issue)', async () => {
    const { contacts } = await load([file], { defaultCountry: 'BR' });
    expect(contacts[0]?.phone).toBe('+555574752553');
    expect(contacts.every((c) => c.language === undefined)).toBe(true);
  });
});

describe('the country and language columns', () => {
  let t: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    t = await tempDir();
  });
  afterEach(() => t.cleanup());

  it('falls back to default_country for an empty country cell, and leaves an empty language cell out', async () => {
    const file = await t.write('c.csv', 'phone,pais,idioma\n11 98765-4321,,\n55 7475 2553, MX ,\n');
    const { contacts } = await load([file], { defaultCountry: 'BR', columns: { country: 'Pais', language: 'Idioma' } });
    expect(contacts.map((c) => [c.phone, c.country, c.language])).toEqual([
      ['+5511987654321', 'BR', undefined],
      ['+525574752553', 'MX', undefined],
    ]);
  });

  it('needs no default_country when every national number has its country', async () => {
    const file = await t.write('c.csv', 'phone,country\n55 7475 2553,MEX\n11 98765-4321,Brasil\n');
    const { contacts } = await load([file], { columns: { country: 'country' } });
    expect(contacts.map((c) => c.phone)).toEqual(['+525574752553', '+5511987654321']);
  });

  it('rejects a country cell it cannot read, and one that names several countries, naming the value', async () => {
    const file = await t.write('c.csv', 'phone,country\n55 7475 2553,Mexcio\n+243 81 234 5678,Congo\n+5511987654321,Atlantis\n');
    const { rejects } = await load([file], { defaultCountry: 'BR', columns: { country: 'country' } });
    expect(rejects.map((r) => [r.line, r.reason, r.detail])).toEqual([
      [
        2,
        'unknown_country',
        'the country column says "Mexcio", which is not a country; write an ISO code such as MX or the country\'s name in English, Portuguese or Spanish',
      ],
      [3, 'unknown_country', 'the country column says "Congo", which names more than one country (CG, CD); write the ISO code instead'],
      [
        4,
        'unknown_country',
        'the country column says "Atlantis", which is not a country; write an ISO code such as MX or the country\'s name in English, Portuguese or Spanish',
      ],
    ]);
  });

  it('compares calling codes, so countries that share one (+1) do not disagree', async () => {
    const file = await t.write('c.csv', 'phone,country\n+1 415 555 2671,CA\n+44 7400 123456,US\n');
    const { contacts, rejects } = await load([file], { columns: { country: 'country' } });
    expect(contacts.map((c) => [c.phone, c.country])).toEqual([['+14155552671', 'US']]);
    expect(rejects.map((r) => r.detail)).toEqual([
      'the number +447400123456 is from United Kingdom (GB, +44) but the country column says United States (US, +1); correct the country or the number',
    ]);
  });

  it('rejects a language cell that is not a language tag', async () => {
    const file = await t.write('c.csv', 'phone,language\n+5511987654321,Spanish\n+5511987654322,es_XX\n+5511987654323,PT-br\n');
    const { contacts, rejects } = await load([file], { columns: { language: 'language' } });
    expect(contacts.map((c) => c.language)).toEqual(['pt_BR']);
    expect(rejects.map(brief)).toEqual([
      { line: 2, reason: 'unknown_language' },
      { line: 3, reason: 'unknown_language' },
    ]);
    expect(rejects[0]?.detail).toBe('the language column says "Spanish", which is not a language code; write one such as es, es_MX or pt-BR');
  });

  it('a country column the file does not have is an error naming the columns', async () => {
    const file = await t.write('c.csv', 'phone,pais\n+5511987654321,BR\n');
    const err = await loadError([file], { columns: { country: 'Country' } });
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(
      `${file}: no column "Country" (columns are: phone, pais); set columns.country in the job to the right header or leave it out`,
    );
    const language = await loadError([file], { columns: { language: 'lang' } });
    expect(language.message).toMatch(/no column "lang" .*set columns\.language in the job/);
  });

  it('does not read a list\'s own "country" column unless the job names it', async () => {
    const file = await t.write('c.csv', 'phone,country\n55 7475 2553,MX\n');
    const { contacts } = await load([file], { defaultCountry: 'BR' });
    expect(contacts.map((c) => [c.phone, c.vars.country])).toEqual([['+555574752553', 'MX']]);
  });

  it('reads the country and language keys of JSON objects', async () => {
    const file = await t.write('c.ndjson', '{"phone":"55 7475 2553","pais":"México","lang":"es-MX"}\n{"phone":"11 98765-4321"}\n');
    const { contacts } = await load([file], { defaultCountry: 'BR', columns: { country: 'pais', language: 'lang' } });
    expect(contacts.map((c) => [c.phone, c.country, c.language])).toEqual([
      ['+525574752553', 'MX', 'es_MX'],
      ['+5511987654321', 'BR', undefined],
    ]);
  });

  it('gives every contact the country of its number, with or without a country column', async () => {
    const { contacts } = await load([fixture('countries.csv')]);
    expect(contacts.map((c) => c.country)).toEqual(['US', 'GB', 'DE', 'FR', 'IN', 'MX', 'ES', 'PT', 'NG', 'AR']);
  });
});
