import { describe, expect, it } from 'vitest';
import type { Template } from '../../src/api/index.js';
import { isCampaignMessage } from '../../src/app/track/campaign-message.js';
import { contactContent, type ContactContent } from '../../src/plan/index.js';
import { testJob } from '../helpers/run.js';

const promo: Template = {
  id: 1,
  name: 'promo_bf',
  language: 'pt_BR',
  category: 'MARKETING',
  status: 'APPROVED',
  components: [
    { type: 'BODY', text: 'Olá {{1}}! Seu cupom de Black Friday é {{2}}.' },
    { type: 'FOOTER', text: 'Responda SAIR para não receber mais.' },
  ],
};
const content = { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana', '2': 'BF10' } } };
const outbound = (body: string, contentType = 'template') => ({ senderType: 'user' as const, body, content: body, contentType });

describe("which platform message is the campaign's", () => {
  it('knows a template by its own words and the contact’s values, however the platform joins the components', () => {
    expect(isCampaignMessage(outbound('Olá Ana! Seu cupom de Black Friday é BF10.\nResponda SAIR para não receber mais.'), content, [promo])).toBe(true);
    expect(isCampaignMessage(outbound('Olá Ana! Seu cupom de Black Friday é BF10.  Responda SAIR para não receber mais.'), content, [promo])).toBe(true);
  });

  it('refuses another contact’s values, another template, and the client’s own words', () => {
    expect(isCampaignMessage(outbound('Olá Bia! Seu cupom de Black Friday é BF11.\nResponda SAIR para não receber mais.'), content, [promo])).toBe(false);
    expect(isCampaignMessage(outbound('Olá Ana! Bem-vinda. BF10'), content, [promo])).toBe(false);
    expect(isCampaignMessage({ ...outbound('Olá Ana! Seu cupom de Black Friday é BF10.\nResponda SAIR para não receber mais.'), senderType: 'client' }, content, [promo])).toBe(false);
    expect(isCampaignMessage(outbound(''), content, [promo])).toBe(false);
  });

  it('falls back to the values on a template message when the template is no longer listed', () => {
    expect(isCampaignMessage(outbound('Olá Ana! cupom BF10'), content, [])).toBe(true);
    expect(isCampaignMessage(outbound('Olá Ana! cupom BF10', 'text'), content, [])).toBe(false);
  });

  it('knows a free text by its filled text exactly', () => {
    const text = { text: 'Oi Ana, seu cupom é BF10' };
    expect(isCampaignMessage(outbound('Oi Ana, seu cupom é BF10', 'text'), text, [])).toBe(true);
    expect(isCampaignMessage(outbound('Oi Ana, seu cupom é BF10 (2)', 'text'), text, [])).toBe(false);
  });
});

describe("a contact's content", () => {
  it('fills the text and the template as the planner does, with the variant when the job has variants', () => {
    const job = testJob({
      message: {
        template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } },
        text: 'Oi {{name}}',
        variants: [{ name: 'mx', when: { countries: ['MX'] }, text: 'Hola {{name}}' }],
      },
    });
    const br = contactContent({ country: 'BR', vars: { name: ' Ana  Maria ', coupon: 'BF1' } }, job.message);
    expect(br).toEqual({ variant: 'default', text: 'Oi Ana  Maria', template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana Maria', '2': 'BF1' } } });
    expect(contactContent({ country: 'MX', vars: { name: 'Juan' } }, job.message)).toEqual({ variant: 'mx', text: 'Hola Juan' });
    expect(contactContent({ country: 'BR', vars: { name: 'Ana' } }, job.message)).toEqual({ variant: 'default', text: 'Oi Ana' });
  });
});

describe('a template message, whatever part of it the platform lists', () => {
  const bf: Template = {
    id: 2,
    name: 'promo_bf',
    language: 'pt_BR',
    category: 'MARKETING',
    status: 'APPROVED',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Black Friday' },
      { type: 'BODY', text: 'Olá {{1}}! Seu cupom de Black Friday é {{2}}.' },
      { type: 'FOOTER', text: 'Responda SAIR para não receber mais.' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Parar promoções' }] },
    ],
  };
  const body = 'Olá Ana! Seu cupom de Black Friday é BF10.';
  const is = (text: string, of: ContactContent = content, templates: Template[] = [bf]) => isCampaignMessage(outbound(text), of, templates);

  it('knows the message by its body alone, with no header, footer or buttons', () => {
    expect(is(body)).toBe(true);
  });

  it('knows the message with every component listed, one a line', () => {
    expect(is(`Black Friday\n${body}\nResponda SAIR para não receber mais.\nParar promoções`)).toBe(true);
  });

  it('knows the message whatever the whitespace: runs of spaces, line breaks, leading and trailing blanks', () => {
    expect(is(`\n  Olá   Ana!\n\nSeu cupom de  Black\tFriday é BF10.  \n`)).toBe(true);
    expect(is(`Black Friday\r\n\r\n${body}\n\n\nResponda SAIR para não receber mais.`)).toBe(true);
  });

  it('knows the message with the header and without it, the footer or the buttons', () => {
    expect(is(`Black Friday\n${body}`)).toBe(true);
    expect(is(`${body}\nResponda SAIR para não receber mais.`)).toBe(true);
    expect(is(`${body}\nParar promoções`)).toBe(true);
  });

  it('refuses the same body with another contact’s values, a longer value included', () => {
    expect(is('Olá Bia! Seu cupom de Black Friday é BF11.')).toBe(false);
    expect(is('Olá Ana! Seu cupom de Black Friday é BF11.')).toBe(false);
    const tail: Template = { ...bf, components: [{ type: 'BODY', text: 'Seu cupom: {{1}}' }, { type: 'FOOTER', text: 'Até logo' }] };
    const bf1 = { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'BF1' } } };
    expect(is('Seu cupom: BF1', bf1, [tail])).toBe(true);
    expect(is('Seu cupom: BF1\nAté logo', bf1, [tail])).toBe(true);
    expect(is('Seu cupom: BF10', bf1, [tail])).toBe(false);
    expect(is('Seu cupom: BF10\nAté logo', bf1, [tail])).toBe(false);
  });

  it('refuses another template’s body with the same values, and an agent’s free text', () => {
    expect(is('Olá Ana! Seu cupom de Natal é BF10.')).toBe(false);
    expect(is('Black Friday\nOlá Ana! Bem-vinda. BF10\nResponda SAIR para não receber mais.')).toBe(false);
    expect(isCampaignMessage(outbound('Olá Ana, tudo bem? Seu cupom BF10 já está ativo.', 'text'), content, [bf])).toBe(false);
  });

  it('knows a body that is only a placeholder by the whole message: the value, with the template’s other parts or without', () => {
    const bare: Template = { ...bf, components: [{ type: 'BODY', text: ' {{1}} ' }, { type: 'FOOTER', text: 'Responda SAIR' }] };
    const oi = { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Oi Ana, seu cupom é BF10' } } };
    expect(is('Oi Ana, seu cupom é BF10', oi, [bare])).toBe(true);
    expect(is('Oi Ana,\nseu cupom é BF10\nResponda SAIR', oi, [bare])).toBe(true);
    expect(is('Oi Ana, seu cupom é BF10 e mais', oi, [bare])).toBe(false);
    expect(is('Veja: Oi Ana, seu cupom é BF10', oi, [bare])).toBe(false);
    expect(is('Oi Ana, seu cupom é BF1', oi, [bare])).toBe(false);
  });

  it('asks every piece of every text when no component is marked as the body', () => {
    const unmarked: Template = { ...bf, components: [{ text: 'Olá {{1}}! Seu cupom de Black Friday é {{2}}.' }, { text: 'Responda SAIR' }] };
    expect(is(`${body}\nResponda SAIR`, content, [unmarked])).toBe(true);
    expect(is(body, content, [unmarked])).toBe(false);
  });
});
