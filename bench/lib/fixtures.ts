/** The job and contacts every executor bench sends: the same shapes the executor's tests use. */
import type { Contact } from '../../src/contacts/index.js';
import { parseJob, type Job } from '../../src/job/index.js';
import type { ChannelInfo } from '../../src/plan/index.js';

/** The simulator's seeded wba channel (company 1). */
export const WBA: ChannelInfo = { id: 10, type: 'wba' };

/** A template job parsed through the real schema, so every default is the one users get. */
export function benchJob(name: string, rate: { per_second: number; concurrency?: number }): Job {
  const parsed = parseJob({
    name,
    contacts: '/dev/null',
    company_id: 1,
    channel_id: WBA.id,
    message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
    retry: { attempts: 3, backoff_ms: 50 },
    rate,
  });
  if (!parsed.ok) throw new Error(`bench job invalid: ${parsed.problems.join('; ')}`);
  return parsed.job;
}

/** The i-th bench phone: a valid, distinct Brazilian mobile in E.164 (+55 11 9xxxx-xxxx). */
export function benchPhone(i: number): string {
  return `+55119${String(10_000_000 + i).padStart(8, '0')}`;
}

/** `n` contacts with distinct valid phones, numbered from `from`. */
export function benchContacts(n: number, from = 0): Contact[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const phone = benchPhone(i);
    const name = `Ana${i}`;
    return { file: 'contacts.csv', line: k + 2, phone, name, vars: { phone, name, coupon: `BF${i}` } };
  });
}

export async function* stream<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}
