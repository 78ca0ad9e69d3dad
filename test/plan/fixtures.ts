import type { Contact } from '../../src/contacts/types.js';
import { parseJob, type Job } from '../../src/job/index.js';
import type { ChannelInfo } from '../../src/plan/index.js';

export const HOUR = 60 * 60 * 1000;
export const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);

export const WBA: ChannelInfo = { id: 10, type: 'wba', name: 'Sales', status: 1 };
export const WHATSAPP: ChannelInfo = { id: 11, type: 'whatsapp', name: 'Support', status: 1 };
export const WW: ChannelInfo = { id: 12, type: 'ww', name: 'Web', status: 1 };

export const TEMPLATE = { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } };
export const TEXT = 'Oi {{name}}, seu cupom é {{coupon}}';
export const MEDIA = { url: 'https://example.com/flyer.jpg', content_type: 'image', file_name: 'flyer.jpg' };

/** A validated job (defaults filled) with the given message and extra fields. */
export function makeJob(message: Record<string, unknown>, extra: Record<string, unknown> = {}): Job {
  const result = parseJob({ name: 'test', contacts: 'c.csv', company_id: 1, channel_id: 10, message, ...extra });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.job;
}

/** A contact with the given columns (name and coupon by default). */
export function makeContact(vars: Record<string, string> = { name: 'Ana', coupon: 'BF10' }, lastInboundAt?: number): Contact {
  return {
    file: 'contacts.csv',
    line: 2,
    phone: '+5511999990001',
    ...(vars.name ? { name: vars.name } : {}),
    ...(lastInboundAt !== undefined ? { lastInboundAt } : {}),
    vars: { phone: '+5511999990001', ...vars },
  };
}
