import { COMPANY_ID } from './assumptions.js';
import type { SimChannel, SimCustomField, SimTag, SimTemplate } from './types.js';

/** What the platform holds at start: company 1's channels, templates, CRM tags and fields; no clients. */
export interface SeedData {
  channels: SimChannel[];
  templates: SimTemplate[];
  tags: SimTag[];
  customFields: SimCustomField[];
}

export function seedData(companyId: number = COMPANY_ID): SeedData {
  return {
    channels: [
      { id: 10, name: 'Sales (WhatsApp Cloud)', type: 'wba', status: 1 },
      { id: 11, name: 'Support (WhatsApp)', type: 'whatsapp', status: 1 },
      { id: 12, name: 'Web session', type: 'ww', status: 1 },
      { id: 13, name: 'Old number', type: 'wba', status: 0 },
    ],
    templates: [
      {
        id: 100,
        name: 'promo_bf',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'APPROVED',
        components: [
          { type: 'BODY', text: 'Oi {{1}}! Seu cupom de Black Friday é {{2}}.' },
          { type: 'FOOTER', text: 'Responda SAIR para não receber mais.' },
          { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Parar promoções' }] },
        ],
      },
      template(101, 'welcome', 'en_US', 'UTILITY', 'APPROVED', 'Hello {{1}}, welcome aboard!'),
      template(102, 'welcome', 'pt_BR', 'UTILITY', 'APPROVED', 'Olá {{1}}, bem-vindo!'),
      template(103, 'order_update', 'es_ES', 'UTILITY', 'APPROVED', 'Hola {{1}}, tu pedido {{2}} llega el {{3}}.'),
      {
        id: 104,
        name: 'appointment_reminder',
        language: 'en_US',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'Reminder for {{1}}' },
          { type: 'BODY', text: 'Your appointment is on {{2}} at {{3}}.' },
        ],
      },
      template(105, 'draft_offer', 'en_US', 'MARKETING', 'PENDING', 'Hi {{1}}, a special offer is waiting for you.'),
      template(106, 'old_promo', 'pt_BR', 'MARKETING', 'REJECTED', 'Oi {{1}}, promoção imperdível!'),
      template(107, 'promo_bf', 'es_MX', 'MARKETING', 'APPROVED', '¡Hola {{1}}! Tu cupón de Buen Fin es {{2}}.'),
    ],
    tags: [
      { id: 1, name: 'vip', color: '#f5a623', description: 'High-value customer' },
      { id: 2, name: 'lead', color: '#4a90e2', description: 'Not a customer yet' },
    ],
    customFields: [
      field(1, 'Campaign', 'campaign', companyId),
      field(2, 'Source', 'source', companyId),
    ],
  };
}

function template(
  id: number,
  name: string,
  language: string,
  category: string,
  status: SimTemplate['status'],
  body: string,
): SimTemplate {
  return { id, name, language, category, status, components: [{ type: 'BODY', text: body }] };
}

function field(id: number, name: string, key: string, companyId: number): SimCustomField {
  return { id, company_id: companyId, name, key, type: 'text', required: false, options: [], active: true };
}
