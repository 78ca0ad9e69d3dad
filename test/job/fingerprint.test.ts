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

describe('messageFingerprint', () => {
  it('is the same for the same content however the file orders its keys, and ignores non-message settings', () => {
    const a = messageFingerprint(job(base));
    const b = messageFingerprint(
      job(
        { text: 'Oi {{name}}', template: { variables: { '2': '{{coupon}}', '1': '{{name}}' }, language: 'pt_BR', name: 'promo_bf' } },
        { rate: { per_second: 99 } },
      ),
    );
    expect(a.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(b.fingerprint).toBe(a.fingerprint);
  });

  it('changes when the text, a variable, prefer or the media changes', () => {
    const prints = [
      job(base),
      job({ ...base, text: 'Olá {{name}}' }),
      job({ ...base, template: { ...base.template, variables: { '1': '{{name}}', '2': '{{code}}' } } }),
      job({ ...base, prefer: 'template' }),
      job({ ...base, media: { url: 'https://x.test/a.jpg', content_type: 'image' } }),
    ].map((j) => messageFingerprint(j).fingerprint);
    expect(new Set(prints).size).toBe(prints.length);
  });
});

describe('describeChange', () => {
  it('says which parts of the message changed, were added or removed', () => {
    const before = messageFingerprint(job(base)).content;
    const after = messageFingerprint(
      job({
        template: { ...base.template, variables: { '1': '{{name}}', '2': '{{code}}' } },
        media: { url: 'https://x.test/a.jpg', content_type: 'image' },
      }),
    ).content;
    expect(describeChange(before, after)).toEqual([
      'message.media added',
      'message.template.variables["2"] changed',
      'message.text removed',
    ]);
  });

  it('finds nothing when nothing changed', () => {
    const content = messageFingerprint(job(base)).content;
    expect(describeChange(content, structuredClone(content))).toEqual([]);
  });
});
