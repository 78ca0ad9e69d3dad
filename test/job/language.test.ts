import { describe, expect, it } from 'vitest';
import { normaliseLanguage as cellLanguage } from '../../src/contacts/language.js';
import { normaliseLanguage as jobLanguage } from '../../src/locale/language.js';

/** job/ and contacts/ read language tags with the one reading of locale/; the contact list's must be it. */
const TAGS = [
  'es', 'ES', 'es_MX', 'es-mx', 'ES_mx', 'pt-BR', 'pt_br', 'pt', ' en ', 'en-US', 'es-419', 'zh-Hant-TW', 'fil', 'iw',
  'Spanish', 'español', 'xx', 'es_XX', 'es-ZZ', 'e', '', 'es MX', 'und', 'es__MX', '-es', 'es-', '12',
];

describe('the job\'s and the contact list\'s language tags', () => {
  it.each(TAGS)('%j reads the same in both', (tag) => {
    expect(jobLanguage(tag)).toBe(cellLanguage(tag));
  });

  it('normalises to language_REGION', () => {
    expect(TAGS.slice(0, 14).map(jobLanguage)).toEqual([
      'es', 'es', 'es_MX', 'es_MX', 'es_MX', 'pt_BR', 'pt_BR', 'pt', 'en', 'en_US', 'es_419', 'zh_TW', 'fil', 'he',
    ]);
    expect(TAGS.slice(14).map(jobLanguage).every((l) => l === undefined)).toBe(true);
  });
});
