import { describe, expect, it } from 'vitest';
import { chooseVariant, columnsUsed, variantLabel } from '../../src/plan/index.js';
import { makeJob } from './fixtures.js';

const PT = { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}' } };
const MX = { name: 'promo_bf', language: 'es_MX', variables: { '1': '{{name}}' } };
const ES = { name: 'promo_bf', language: 'es_ES', variables: { '1': '{{name}}' } };

const job = makeJob(
  {
    template: PT,
    text: 'Oi {{name}}',
    prefer: 'template',
    media: { url: 'https://example.com/pt.jpg', content_type: 'image' },
    variants: [
      { name: 'mexico', when: { countries: ['MX', 'CO'] }, template: MX, text: 'Hola {{name}}' },
      { when: { countries: ['ES'], language: 'es' }, template: ES },
      { name: 'spanish', when: { language: 'es' }, template: MX },
    ],
  },
  { columns: { language: 'language' } },
);

describe('chooseVariant', () => {
  it('gives a contact of a listed country that variant, complete and with the job\'s prefer', () => {
    expect(chooseVariant({ country: 'MX' }, job.message)).toEqual({
      variant: 0,
      name: 'mexico',
      message: { template: MX, text: 'Hola {{name}}', prefer: 'template' },
    });
    expect(chooseVariant({ country: 'CO', language: 'pt_BR' }, job.message).variant).toBe(0);
  });

  it('takes the first that matches, in order, with every condition of a when', () => {
    expect(chooseVariant({ country: 'ES', language: 'es_ES' }, job.message)).toEqual({ variant: 1, message: { template: ES, prefer: 'template' } });
    // Spain without a Spanish language cell: variant 1 needs both, variant 2 the language: the default.
    expect(chooseVariant({ country: 'ES' }, job.message).variant).toBeUndefined();
    // A Spanish speaker with a Brazilian number: the language variant.
    expect(chooseVariant({ country: 'BR', language: 'es_AR' }, job.message)).toMatchObject({ variant: 2, name: 'spanish' });
  });

  it('gives everyone else the job\'s own message, media included', () => {
    const choice = chooseVariant({ country: 'BR', language: 'pt_BR' }, job.message);
    expect(choice.variant).toBeUndefined();
    expect(choice.name).toBeUndefined();
    expect(choice.message).toMatchObject({ template: PT, text: 'Oi {{name}}', prefer: 'template', media: { url: 'https://example.com/pt.jpg' } });
    expect(chooseVariant({}, job.message).variant).toBeUndefined();
  });

  it('gives the default to everyone in a job without variants', () => {
    const plain = makeJob({ text: 'hi' });
    expect(chooseVariant({ country: 'MX', language: 'es' }, plain.message)).toEqual({ variant: undefined, message: plain.message });
  });
});

describe('variantLabel', () => {
  it('is the name, else the index, and "default" for the job\'s own message', () => {
    expect(variantLabel({ variant: 0, name: 'mexico' })).toBe('mexico');
    expect(variantLabel({ variant: 1 })).toBe('1');
    expect(variantLabel({ variant: undefined })).toBe('default');
  });
});

describe('columnsUsed with variants', () => {
  it('lists the columns of every variant\'s text and template too', () => {
    const withVariants = makeJob({
      text: 'Oi {{name}}',
      variants: [{ when: { countries: ['MX'] }, text: 'Hola {{nombre}}', template: { name: 'promo_bf', language: 'es_MX', variables: { '1': '{{cupon}}' } } }],
    });
    expect(columnsUsed(withVariants)).toEqual(['name', 'nombre', 'cupon']);
  });
});
