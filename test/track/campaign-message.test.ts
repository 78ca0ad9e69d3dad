import { describe, expect, it } from 'vitest';
import type { Template } from '../../src/api/index.js';
import { isCampaignMessage } from '../../src/app/campaign-message.js';
import { contactContent } from '../../src/plan/index.js';
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
