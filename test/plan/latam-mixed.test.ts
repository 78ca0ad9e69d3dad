import { describe, expect, it } from 'vitest';
import { chooseVariant, variantLabel } from '../../src/plan/index.js';
import { fixture, load } from '../contacts/helpers.js';
import { makeJob } from './fixtures.js';

/**
 * The "done when": a list of Brazilian and Mexican rows, numbers in national and
 * international forms, a country column in ISO codes and in names, one row whose +55 number says
 * MX. Each Mexican goes out as +52… with the es_MX template, each Brazilian as +55… with pt_BR.
 */
const job = makeJob(
  {
    template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}' } },
    variants: [{ name: 'mexico', when: { countries: ['MX'] }, template: { name: 'promo_bf', language: 'es_MX', variables: { '1': '{{name}}' } } }],
  },
  { default_country: 'BR', columns: { country: 'country', language: 'language' } },
);

describe('a mixed Brazilian and Mexican list', () => {
  it('sends each Mexican number as +52… with es_MX, each Brazilian as +55… with pt_BR, and rejects the mismatch', async () => {
    const file = fixture('latam-mixed.csv');
    // As the commands fold the job into the loader's options.
    const { contacts, rejects } = await load([file], { defaultCountry: job.default_country, columns: job.columns });

    const planned = contacts.map((c) => {
      const choice = chooseVariant(c, job.message);
      return [c.vars.name, c.phone, variantLabel(choice), choice.message.template?.language];
    });
    expect(planned).toEqual([
      ['Lucía', '+525574752553', 'mexico', 'es_MX'],
      ['Andrés', '+523312345678', 'mexico', 'es_MX'],
      ['Sofía', '+528181234567', 'mexico', 'es_MX'],
      ['Ana', '+5511987654321', 'default', 'pt_BR'],
      ['Bruno', '+5521998765432', 'default', 'pt_BR'],
      ['Carla', '+5531991234567', 'default', 'pt_BR'],
    ]);
    expect(rejects.map((r) => [r.line, r.raw.name, r.reason, r.detail])).toEqual([
      [
        8,
        'Diego',
        'phone_country_mismatch',
        'the number +5511912345678 is from Brazil (BR, +55) but the country column says Mexico (MX, +52); correct the country or the number',
      ],
    ]);
  });
});
