import { getCountries } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { parseJob } from '../../src/job/index.js';

const valid = {
  name: 'bf',
  contacts: 'contacts.csv',
  company_id: 1,
  channel_id: 10,
  message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}' } } },
};

function problemsOf(raw: unknown): string[] {
  const result = parseJob(raw);
  if (result.ok) throw new Error('expected the job to be refused');
  return result.problems;
}

describe('parseJob refuses, one sentence per problem naming the path and the fix', () => {
  it.each<[string, unknown, string[]]>([
    [
      'a token at the top level',
      { ...valid, token: 'abc' },
      ['token: a token never goes in a job file; set OUTREACH_TOKEN or pass --token-file'],
    ],
    [
      'a token-like field inside an object',
      { ...valid, rate: { api_token: 'abc' } },
      ['rate.api_token: a token never goes in a job file; set OUTREACH_TOKEN or pass --token-file'],
    ],
    [
      'an unknown field close to a known one, and does not also call the known one missing',
      { ...valid, channel_id: undefined, chanel_id: 10 },
      ['unknown field "chanel_id"; did you mean "channel_id"?'],
    ],
    [
      'an unknown field nested in an object',
      { ...valid, rate: { per_sec: 5 } },
      ['rate: unknown field "per_sec"; did you mean "per_second"?'],
    ],
    [
      'an unknown field like nothing known, listing the fields allowed there',
      { ...valid, window: { zzz: 1 } },
      ['window: unknown field "zzz"; remove it (the fields here are "safety_margin_minutes")'],
    ],
    [
      'a template language not of the form xx_XX',
      { ...valid, message: { template: { name: 'promo_bf', language: 'ptBR' } } },
      ['message.template.language: "ptBR" is not of the form xx_XX, e.g. pt_BR'],
    ],
    ['a rate of 0', { ...valid, rate: { per_second: 0 } }, ['rate.per_second: must be a number above 0, e.g. 10']],
    [
      'a rate above the provider ceiling',
      { ...valid, rate: { per_second: 5000 } },
      ['rate.per_second: must be a number above 0 and at most 1000, e.g. 10'],
    ],
    [
      'a concurrency above 1000',
      { ...valid, rate: { concurrency: 2000 } },
      ['rate.concurrency: must be "auto" or a whole number from 1 to 1000, e.g. "auto" or 64'],
    ],
    [
      'a concurrency that is neither auto nor a number',
      { ...valid, rate: { concurrency: 'fast' } },
      ['rate.concurrency: must be "auto" or a whole number from 1 to 1000, e.g. "auto" or 64'],
    ],
    [
      'a timeout of 0',
      { ...valid, rate: { timeout_s: 0 } },
      ['rate.timeout_s: must be a whole number from 1 to 600, e.g. 30'],
    ],
    [
      'a number written as a string',
      { ...valid, company_id: '1' },
      ['company_id: must be a whole number above 0, e.g. 1; write it without quotes'],
    ],
    ['a wrong type handled by the generic wording', { ...valid, input: { require_mobile: 'yes' } }, ['input.require_mobile: must be true or false']],
    [
      'a missing required field',
      { ...valid, company_id: undefined },
      ['company_id: is missing; add the platform company\'s id, e.g. "company_id": 1'],
    ],
    [
      'a name that cannot name a folder',
      { ...valid, name: '../etc' },
      [
        'name: "../etc" cannot name a folder; use letters, digits, "-", "_" and "." only (starting with a letter or digit, at most 100), e.g. "black-friday-2026"',
      ],
    ],
    [
      'a message with neither template nor text',
      { ...valid, message: {} },
      ['message: has neither a template nor a text; add "template": { "name", "language" } or "text": "…" (or both)'],
    ],
    [
      'prefer template without a template',
      { ...valid, message: { text: 'hi', prefer: 'template' } },
      ['message.prefer: is "template" but there is no message.template; add one or set prefer to "text"'],
    ],
    [
      'variables keyed by something other than a position',
      { ...valid, message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { one: 'x' } } } },
      [
        'message.template.variables: key "one" is not a placeholder position; key each variable by its position "1", "2", … (for {{1}}, {{2}}, …)',
      ],
    ],
    [
      'variable positions with a gap',
      { ...valid, message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'a', '3': 'b' } } } },
      ['message.template.variables: positions must run from 1 without gaps; the job gives 1, 3'],
    ],
    [
      'an empty placeholder in the text',
      { ...valid, message: { text: 'Oi {{}}' } },
      ['message.text: has an empty placeholder {{}}; put a column name inside, e.g. {{name}}'],
    ],
    [
      'an unclosed placeholder in a custom field',
      { ...valid, after_send: { custom_fields: { campaign: '{{coupon' } } },
      [
        'after_send.custom_fields.campaign: has a "{{" or "}}" that is not part of a {{column}} placeholder; write placeholders as {{column}}, e.g. {{name}}',
      ],
    ],
    ['a lower-case country code', { ...valid, default_country: 'br' }, ['default_country: must be in upper case: "BR"']],
    [
      'an unknown country code',
      { ...valid, default_country: 'XX' },
      ['default_country: "XX" is not a country code; use two upper-case letters (ISO 3166-1), e.g. "BR" or "US"'],
    ],
    [
      'a media type that is neither a kind nor a MIME type',
      { ...valid, message: { text: 'hi', media: { url: 'https://x.test/a.pdf', content_type: 'pdf' } } },
      [
        'message.media.content_type: "pdf" is not a media type; use "image", "video", "audio", "document" or a MIME type such as "application/pdf"',
      ],
    ],
    [
      'media without a content type',
      { ...valid, message: { text: 'hi', media: { url: 'https://x.test/a.jpg' } } },
      [
        'message.media.content_type: is missing; it must be "image", "video", "audio", "document" or a MIME type such as "application/pdf"',
      ],
    ],
    ['an empty contact list', { ...valid, contacts: [] }, ['contacts: must list at least one file or glob']],
    ['a job that is not an object', [1, 2], ['the job must be a JSON object { … }; see jobs/black-friday.json']],
  ])('%s', (_what, raw, expected) => {
    expect(problemsOf(raw)).toEqual(expected);
  });

  it('reports every problem of a job at once, each on its own', () => {
    const problems = problemsOf({ ...valid, token: 'x', company_id: 0, rate: { per_second: -1 }, chanel: 1 });
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^token: /);
  });

  it('lets a custom field be called "token": its keys are the user\'s own', () => {
    const result = parseJob({ ...valid, after_send: { custom_fields: { token: 'T-{{name}}' } } });
    expect(result.ok).toBe(true);
  });
});

describe('columns.email', () => {
  it('is refused: the platform takes no e-mail address with a message, so it would go nowhere', () => {
    const result = parseJob({ name: 'a', contacts: 'x.csv', company_id: 1, channel_id: 2, message: { text: 'hi' }, columns: { phone: 'Phone', email: 'E-mail' } });
    expect(result).toEqual({
      ok: false,
      problems: [
        'columns.email: goes nowhere: the platform takes no e-mail address with a message (start-whatsapp has no email field), so outreach cannot put it on the client; remove it (the column still fills {{placeholders}} by its own header)',
      ],
    });
  });
});

describe('parseJob fills every default once', () => {
  it('gives a minimal job the documented defaults', () => {
    const result = parseJob({ name: 'a', contacts: 'x.csv', company_id: 1, channel_id: 2, message: { text: 'hi' } });
    expect(result).toEqual({
      ok: true,
      job: {
        name: 'a',
        contacts: ['x.csv'],
        company_id: 1,
        channel_id: 2,
        channels: [2],
        columns: { phone: 'phone', name: 'name', lastname: 'lastname', last_inbound_at: 'last_inbound_at' },
        input: { require_mobile: false },
        message: { text: 'hi', prefer: 'text', variants: [] },
        conversation: {},
        after_send: { tags: [], custom_fields: {} },
        rate: { per_second: 10, concurrency: 'auto', max_concurrency: 1000, timeout_s: 30, http2: true },
        retry: { attempts: 3, backoff_ms: 2000, marketing_limit_hours: 24 },
        window: { safety_margin_minutes: 60 },
        limits: { max_reject_ratio: 0.2, max_failure_ratio: 0.5, min_hours_between_messages: 24, repeat_message: false },
        require_opt_in: false,
        track: { max_age_hours: 72, per_second: 100 },
      },
    });
  });

  it('fills the defaults inside a partly given object', () => {
    const result = parseJob({ ...valid, rate: { per_second: 50 }, columns: { phone: 'Phone' } });
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.job.rate).toEqual({ per_second: 50, concurrency: 'auto', max_concurrency: 1000, timeout_s: 30, http2: true });
    expect(result.job.columns.phone).toBe('Phone');
    expect(result.job.columns.name).toBe('name');
    expect(result.job.message.template?.variables).toEqual({ '1': '{{name}}' });
  });

  it('accepts a $schema field for editors', () => {
    expect(parseJob({ ...valid, $schema: '../docs/job.schema.json' }).ok).toBe(true);
  });

  it('accepts as default_country every country the phone library reads numbers of, and only those', () => {
    const refused = getCountries().filter((country) => !parseJob({ ...valid, default_country: country }).ok);
    expect(refused).toEqual([]);
    expect(parseJob({ ...valid, default_country: 'ZZ' }).ok).toBe(false);
  });
});
