import { describe, expect, it } from 'vitest';
import { formatLanguage, languageMatches, parseLanguage } from '../../src/plan/index.js';

describe('parseLanguage', () => {
  it.each([
    ['es', { language: 'es' }],
    ['es_MX', { language: 'es', region: 'MX' }],
    ['es-mx', { language: 'es', region: 'MX' }],
    ['pt-BR', { language: 'pt', region: 'BR' }],
    ['PT_br', { language: 'pt', region: 'BR' }],
    ['es-419', { language: 'es', region: '419' }],
    ['zh-Hant-TW', { language: 'zh', region: 'TW' }],
  ])('%s is %j', (tag, parsed) => {
    expect(parseLanguage(tag)).toEqual(parsed);
  });

  it.each(['', 'spanish', 'es MX', 'es_MEX', 'e'])('%j is not a tag', (tag) => {
    expect(parseLanguage(tag)).toBeUndefined();
  });

  it('writes a tag back as language_REGION', () => {
    expect(['es-mx', 'pt-BR', 'ES'].map((t) => formatLanguage(parseLanguage(t) ?? { language: '?' }))).toEqual(['es_MX', 'pt_BR', 'es']);
  });
});

describe('languageMatches: by language, then region', () => {
  it.each<[string, string | undefined, boolean]>([
    ['es', 'es', true],
    ['es', 'es_MX', true],
    ['es', 'es-AR', true],
    ['es_MX', 'es_MX', true],
    ['es_MX', 'es-mx', true],
    ['es-MX', 'es_MX', true],
    ['es_MX', 'es_AR', false],
    ['es_MX', 'es', false],
    ['es', 'pt_BR', false],
    ['pt_BR', 'pt_PT', false],
    ['pt', 'pt-BR', true],
    ['es', undefined, false],
  ])('a %s variant %s a %s contact', (wanted, have, expected) => {
    expect(languageMatches(wanted, have)).toBe(expected);
  });
});
