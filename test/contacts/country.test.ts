import { describe, expect, it } from 'vitest';
import { CountryCells, countryMismatch, nameKey, readCountry } from '../../src/contacts/country.js';
import { LanguageCells, normaliseLanguage } from '../../src/contacts/language.js';

describe('readCountry', () => {
  it.each([
    ['MX', 'MX'],
    ['mx', 'MX'],
    [' BR ', 'BR'],
    ['MEX', 'MX'],
    ['bra', 'BR'],
    ['Mexico', 'MX'],
    ['México', 'MX'],
    ['MÉXICO', 'MX'],
    ['mexico', 'MX'],
    ['Brasil', 'BR'],
    ['Brazil', 'BR'],
    ['Estados Unidos', 'US'],
    ['United States of America', 'US'],
    ['UK', 'GB'],
    ['Reino Unido', 'GB'],
    ['Perú', 'PE'],
    ['Colômbia', 'CO'],
    ['Côte d\'Ivoire', 'CI'],
    ['cote d ivoire', 'CI'],
    ['Espanha', 'ES'],
    ['España', 'ES'],
  ])('%s is %s', (cell, code) => {
    expect(readCountry(cell)).toEqual({ ok: true, country: code });
  });

  it.each(['Mexcio', 'XX', 'Atlantis', 'AQ', '52', 'Congo'])('%s is not read', (cell) => {
    expect(readCountry(cell).ok).toBe(false);
  });

  it('folds case, accents and punctuation into one key', () => {
    expect(nameKey('  São  Tomé-e-Príncipe ')).toBe('sao tome e principe');
  });

  it('reads each distinct cell once', () => {
    const cells = new CountryCells();
    const first = cells.read('México');
    expect(cells.read('México')).toBe(first);
  });
});

describe('countryMismatch', () => {
  it('is nothing when the calling codes agree, the names of both when not', () => {
    expect(countryMismatch({ number: '+525574752553', country: 'MX', countryCallingCode: '52' }, 'MX')).toBeUndefined();
    expect(countryMismatch({ number: '+14155552671', country: 'US', countryCallingCode: '1' }, 'CA')).toBeUndefined();
    expect(countryMismatch({ number: '+80012345678', countryCallingCode: '800' }, 'BR')).toBe(
      'the number +80012345678 is from +800, no single country but the country column says Brazil (BR, +55); correct the country or the number',
    );
  });
});

describe('normaliseLanguage', () => {
  it.each([
    ['es', 'es'],
    ['ES', 'es'],
    ['es_MX', 'es_MX'],
    ['es-mx', 'es_MX'],
    ['pt-BR', 'pt_BR'],
    ['pt_br', 'pt_BR'],
    [' en ', 'en'],
    ['es-419', 'es_419'],
    ['zh-Hant-TW', 'zh_TW'],
    ['fil', 'fil'],
  ])('%s is %s', (tag, normalised) => {
    expect(normaliseLanguage(tag)).toBe(normalised);
  });

  it.each(['Spanish', 'español', 'xx', 'es_XX', 'es-ZZ', 'e', '', 'es MX', 'und'])('%s is not a language tag', (tag) => {
    expect(normaliseLanguage(tag)).toBeUndefined();
  });

  it('reads each distinct cell once, null for one that is not a language', () => {
    const cells = new LanguageCells();
    expect(cells.read('es-mx')).toBe('es_MX');
    expect(cells.read('nope')).toBeNull();
  });
});
