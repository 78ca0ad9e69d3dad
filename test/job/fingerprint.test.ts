import { describe, expect, it } from 'vitest';
import { describeChange, messageFingerprint, parseJob, type Job } from '../../src/job/index.js';

function job(message: Record<string, unknown>, extra: Record<string, unknown> = {}): Job {
  const result = parseJob({ name: 'j', contacts: 'c.csv', company_id: 1, channel_id: 10, message, ...extra });
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.job;
}

const base = {
  template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } },
  text: 'Oi {{name}}',
};
const MX = { name: 'promo_bf', language: 'es_MX', variables: { '1': '{{name}}', '2': '{{coupon}}' } };
const withVariants = (variants: unknown[]) => job({ ...base, variants }, { columns: { country: 'country', language: 'language' } });

describe('messageFingerprint', () => {
  it('is the same for the same content however the file orders its keys, and ignores settings that change no message', () => {
    const a = messageFingerprint(job(base));
    const b = messageFingerprint(
      job(
        { text: 'Oi {{name}}', template: { variables: { '2': '{{coupon}}', '1': '{{name}}' }, language: 'pt_BR', name: 'promo_bf' } },
        { rate: { per_second: 99 }, retry: { attempts: 0 }, columns: { name: 'Nome' }, limits: { max_reject_ratio: 0.5 } },
      ),
    );
    expect(a.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(b.fingerprint).toBe(a.fingerprint);
  });

  it('changes with anything that makes a message land somewhere else or say something else', () => {
    const variant = { when: { countries: ['MX'] }, template: MX };
    const jobs = [
      job(base),
      job({ ...base, text: 'Olá {{name}}' }),
      job({ ...base, template: { ...base.template, variables: { '1': '{{name}}', '2': '{{code}}' } } }),
      job({ ...base, prefer: 'template' }),
      job({ ...base, media: { url: 'https://x.test/a.jpg', content_type: 'image' } }),
      job(base, { company_id: 2 }),
      job(base, { channel_id: 11 }),
      job(base, { default_country: 'MX' }),
      job(base, { columns: { country: 'pais' } }),
      job(base, { conversation: { topic: 'bf' } }),
      job(base, { conversation: { pipeline_id: 3 } }),
      job(base, { conversation: { pipeline_stage_id: 12 } }),
      job(base, { after_send: { tags: ['bf'] } }),
      job(base, { after_send: { custom_fields: { campaign: 'bf' } } }),
      withVariants([variant]),
      withVariants([{ ...variant, when: { countries: ['MX', 'CO'] } }]),
      withVariants([{ ...variant, when: { language: 'es' } }]),
      withVariants([{ ...variant, template: { ...MX, language: 'es_AR' } }]),
      withVariants([{ ...variant, text: 'Hola' }]),
      withVariants([{ ...variant, media: { url: 'https://x.test/es.jpg', content_type: 'image' } }]),
      withVariants([variant, { when: { language: 'es' }, template: MX }]),
    ];
    const prints = jobs.map((j) => messageFingerprint(j).fingerprint);
    expect(new Set(prints).size).toBe(prints.length);
  });

  it('leaves a variant\'s name out: it only labels the report', () => {
    const a = withVariants([{ when: { countries: ['MX'] }, template: MX }]);
    const b = withVariants([{ name: 'mexico', when: { countries: ['MX'] }, template: MX }]);
    expect(messageFingerprint(b).fingerprint).toBe(messageFingerprint(a).fingerprint);
  });
});

describe('describeChange', () => {
  it('names what changed, with both values when they are short', () => {
    const before = messageFingerprint(job(base, { channel_id: 7, conversation: { topic: 'black friday' }, after_send: { tags: ['bf'] } })).content;
    const after = messageFingerprint(
      job(
        {
          template: { ...base.template, variables: { '1': '{{name}}', '2': '{{code}}' } },
          media: { url: 'https://x.test/a.jpg', content_type: 'image' },
        },
        { channel_id: 9, default_country: 'BR', conversation: { pipeline_id: 3 }, after_send: { tags: ['bf', 'promo'] } },
      ),
    ).content;
    expect(describeChange(before, after)).toEqual([
      'after_send.tags ["bf"] → ["bf","promo"]',
      'channel_id 7 → 9',
      'conversation.pipeline_id added',
      'conversation.topic removed',
      'default_country added',
      'message.media added',
      'message.template.variables["2"] "{{coupon}}" → "{{code}}"',
      'message.text removed',
    ]);
  });

  it('names the variant that changed, was added or removed', () => {
    const one = messageFingerprint(withVariants([{ when: { countries: ['MX'] }, template: MX }])).content;
    const two = messageFingerprint(
      withVariants([
        { when: { countries: ['MX', 'CO'] }, template: { ...MX, language: 'es_AR' } },
        { when: { language: 'es' }, text: `Hola {{name}}, ${'x'.repeat(50)}` },
      ]),
    ).content;
    expect(describeChange(one, two)).toEqual([
      'message.variants[0].template.language "es_MX" → "es_AR"',
      'message.variants[0].when.countries ["MX"] → ["MX","CO"]',
      'message.variants[1] added',
    ]);
    expect(describeChange(two, one)).toEqual([
      'message.variants[0].template.language "es_AR" → "es_MX"',
      'message.variants[0].when.countries ["MX","CO"] → ["MX"]',
      'message.variants[1] removed',
    ]);
    const longer = messageFingerprint(withVariants([{ when: { countries: ['MX'] }, template: MX, text: `Hola ${'y'.repeat(50)}` }])).content;
    const longest = messageFingerprint(withVariants([{ when: { countries: ['MX'] }, template: MX, text: `Hola ${'z'.repeat(50)}` }])).content;
    expect(describeChange(longer, longest)).toEqual(['message.variants[0].text changed']);
  });

  it('finds nothing when nothing changed', () => {
    const content = messageFingerprint(withVariants([{ when: { countries: ['MX'] }, template: MX }])).content;
    expect(describeChange(content, structuredClone(content))).toEqual([]);
  });

  it('compares the message of a checkpoint started before the fingerprint covered the rest, and says so', () => {
    const legacy = { template: base.template, text: 'Oi {{name}}', prefer: 'text', media: null };
    const now = messageFingerprint(job({ ...base, text: 'Olá {{name}}' })).content;
    expect(describeChange(legacy, now)).toEqual([
      'message.text "Oi {{name}}" → "Olá {{name}}"',
      'company_id, channel_id, default_country, columns, message.variants, conversation and after_send not compared: the checkpoint was started by an earlier outreach',
    ]);
  });
});
