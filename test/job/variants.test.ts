import { describe, expect, it } from 'vitest';
import { parseJob } from '../../src/job/index.js';

const MX_TEMPLATE = { name: 'promo_bf', language: 'es_MX', variables: { '1': '{{name}}' } };
const base = {
  name: 'latam',
  contacts: 'contacts.csv',
  company_id: 1,
  channel_id: 10,
  columns: { country: 'country', language: 'language' },
};
const message = (variants: unknown, extra: Record<string, unknown> = {}) => ({
  template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}' } },
  text: 'Oi {{name}}',
  media: { url: 'https://example.com/flyer.jpg', content_type: 'image' },
  ...extra,
  variants,
});

function problemsOf(raw: unknown): string[] {
  const result = parseJob(raw);
  if (result.ok) throw new Error('expected the job to be refused');
  return result.problems;
}

describe('message.variants', () => {
  it('folds each variant into a complete message of its own: its template, text and media, the job\'s prefer', () => {
    const result = parseJob({
      ...base,
      message: message(
        [
          { name: 'mexico', when: { countries: ['MX', 'CO'] }, template: MX_TEMPLATE },
          { when: { language: 'es-mx' }, text: 'Hola {{name}}', media: { url: 'https://example.com/es.jpg', content_type: 'image' } },
        ],
        { prefer: 'template' },
      ),
    });
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.job.message.variants).toEqual([
      { name: 'mexico', when: { countries: ['MX', 'CO'] }, message: { template: MX_TEMPLATE, prefer: 'template' } },
      {
        when: { language: 'es_MX' },
        message: { text: 'Hola {{name}}', prefer: 'template', media: { url: 'https://example.com/es.jpg', content_type: 'image' } },
      },
    ]);
    expect(result.job.columns).toMatchObject({ country: 'country', language: 'language' });
  });

  it('defaults to none, and leaves the country and language columns unset', () => {
    const result = parseJob({ ...base, columns: undefined, message: { text: 'hi' } });
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.job.message.variants).toEqual([]);
    expect(result.job.columns.country).toBeUndefined();
    expect(result.job.columns.language).toBeUndefined();
  });

  it.each<[string, unknown, string[]]>([
    [
      'a variant with neither a template nor a text',
      [{ when: { countries: ['MX'] }, media: { url: 'https://example.com/a.jpg', content_type: 'image' } }],
      [
        'message.variants[0]: has neither a template nor a text; add "template": { "name", "language" } or "text": "…" (or both): a variant replaces the whole message, so nothing of the default carries over',
      ],
    ],
    [
      'an unknown key in when',
      [{ when: { country: ['MX'] }, template: MX_TEMPLATE }],
      ['message.variants[0].when: unknown field "country"; did you mean "countries"?'],
    ],
    [
      'a when that names no condition',
      [{ when: {}, template: MX_TEMPLATE }],
      ['message.variants[0].when: names no condition; give "countries": ["MX", …] or "language": "es" (or both, which must both match)'],
    ],
    [
      'a variant without when',
      [{ template: MX_TEMPLATE }],
      ['message.variants[0].when: is missing; add "when": { "countries": ["MX"] } or { "language": "es" }'],
    ],
    [
      'a language that is not a language code',
      [{ when: { language: 'spanish' }, template: MX_TEMPLATE }],
      ['message.variants[0].when.language: "spanish" is not a language code; write one such as "es", "es_MX" or "pt-BR"'],
    ],
    [
      'a country that is not an ISO alpha-2 code',
      [{ when: { countries: ['MX', 'Mexico'] }, template: MX_TEMPLATE }],
      ['message.variants[0].when.countries[1]: "Mexico" is not a country code; use two upper-case letters (ISO 3166-1), e.g. "BR" or "US"'],
    ],
    [
      'a lower-case country',
      [{ when: { countries: ['mx'] }, template: MX_TEMPLATE }],
      ['message.variants[0].when.countries[0]: must be in upper case: "MX"'],
    ],
    [
      'an empty list of countries',
      [{ when: { countries: [] }, template: MX_TEMPLATE }],
      ['message.variants[0].when.countries: must list at least one country code, e.g. ["MX"]'],
    ],
    [
      'an unknown field in a variant',
      [{ when: { countries: ['MX'] }, template: MX_TEMPLATE, prefer: 'text' }],
      ['message.variants[0]: unknown field "prefer"; remove it (the fields here are "name", "when", "template", "text", "media")'],
    ],
    [
      'a variant template of the wrong form',
      [{ when: { countries: ['MX'] }, template: { name: 'promo_bf', language: 'es' } }],
      ['message.variants[0].template.language: "es" is not of the form xx_XX, e.g. pt_BR'],
    ],
    [
      'two variants of the same name',
      [
        { name: 'latam', when: { countries: ['MX'] }, template: MX_TEMPLATE },
        { name: 'LATAM', when: { language: 'es' }, template: MX_TEMPLATE },
      ],
      ['message.variants[1].name: "LATAM" is also the name of message.variants[0]; give each variant its own name'],
    ],
    [
      'a name that would read as an index',
      [{ name: '2', when: { countries: ['MX'] }, template: MX_TEMPLATE }],
      ['message.variants[0].name: "2" would read as a variant\'s index or the default message in the report; use a word, e.g. "mexico"'],
    ],
    [
      'variants that are not a list',
      { when: { countries: ['MX'] }, template: MX_TEMPLATE },
      ['message.variants: must be a list of variants, e.g. [{ "when": { "countries": ["MX"] }, "template": { … } }]'],
    ],
  ])('refuses %s', (_what, variants, problems) => {
    expect(problemsOf({ ...base, message: message(variants) })).toEqual(problems);
  });

  it('refuses a language variant when the job names no language column', () => {
    expect(problemsOf({ ...base, columns: { country: 'country' }, message: message([{ when: { language: 'es' }, template: MX_TEMPLATE }]) })).toEqual([
      'message.variants[0].when.language: needs to know each contact\'s language, and the job names no language column; set columns.language to the header of the column holding it',
    ]);
  });
});
