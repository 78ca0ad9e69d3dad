import { getCountries } from 'libphonenumber-js';
import { z } from 'zod';
import { id, positiveNumber, ratio, says, templated, text, wholeNumber } from './fields.js';

/**
 * The job file: one JSON object, strict at every level (an unknown field is a mistake to report,
 * not to ignore). zod fills every default here, once, so nothing downstream re-applies one.
 */

const name = z
  .string({ error: says('a text', 'name the job, e.g. "name": "black-friday-2026" (it names its state folder)') })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, {
    error: (iss) =>
      `${JSON.stringify(iss.input)} cannot name a folder; use letters, digits, "-", "_" and "." only ` +
      '(starting with a letter or digit, at most 100), e.g. "black-friday-2026"',
  })
  .describe('Names the job and its state folder: letters, digits, "-", "_", "."');

const contactPath = text('a file path or glob, e.g. "../samples/contacts.csv"');
const contacts = z
  .union([contactPath, z.array(contactPath).min(1, { error: 'must list at least one file or glob' })], {
    error: says(
      'a file path or glob, or a list of them, e.g. "../samples/contacts.csv" or ["a.csv", "imports/*.csv"]',
      'add the contact list, e.g. "contacts": "../samples/contacts.csv" (relative to the job file)',
    ),
  })
  .transform((value) => (typeof value === 'string' ? [value] : value))
  .describe('Contact list file(s): a path or glob, or a list of them, relative to the job file');

const countries = getCountries();
const defaultCountry = z
  .enum(countries, {
    error: (iss) => {
      const input = typeof iss.input === 'string' ? iss.input : '';
      const upper = input.toUpperCase();
      if (input !== upper && (countries as string[]).includes(upper)) return `must be in upper case: "${upper}"`;
      return `${JSON.stringify(iss.input)} is not a country code; use two upper-case letters (ISO 3166-1), e.g. "BR" or "US"`;
    },
  })
  .describe('Country of phone numbers written without a country code (ISO 3166-1 alpha-2, e.g. BR)');

const column = text('the header of a column of the contact list, e.g. "Phone"');
const columns = z
  .strictObject({
    phone: column.default('phone'),
    name: column.default('name'),
    lastname: column.default('lastname'),
    email: column.default('email'),
    last_inbound_at: column.default('last_inbound_at'),
  })
  .prefault({})
  .describe('Which column holds each field; each defaults to the column of the same name');

const input = z
  .strictObject({
    format: z
      .enum(['csv', 'tsv', 'json', 'ndjson'], {
        error: says('one of "csv", "tsv", "json", "ndjson" (or left out to go by the file extension)'),
      })
      .optional(),
    delimiter: z
      .enum([',', ';', '\t'], { error: says('one of ",", ";" or "\\t" (or left out to detect it)') })
      .optional(),
    require_mobile: z
      .boolean({ error: says('true or false') })
      .default(false)
      .describe('Reject numbers that are not mobile numbers'),
  })
  .prefault({});

const variables = z
  .record(
    z.string().regex(/^[1-9][0-9]*$/, {
      error: (iss) =>
        `key ${JSON.stringify(iss.input)} is not a placeholder position; key each variable by its position "1", "2", … (for {{1}}, {{2}}, …)`,
    }),
    templated('a text, e.g. "{{name}}" (the contact\'s name column) or a fixed value'),
    { error: says('an object of position → value, e.g. { "1": "{{name}}" }') },
  )
  .default({})
  .superRefine((vars, ctx) => {
    const given = Object.keys(vars)
      .map(Number)
      .sort((a, b) => a - b);
    if (given.some((position, i) => position !== i + 1)) {
      ctx.addIssue({
        code: 'custom',
        input: vars,
        message: `positions must run from 1 without gaps; the job gives ${given.join(', ')}`,
      });
    }
  })
  .describe('Template variables by position: { "1": "{{name}}", "2": "{{coupon}}" }');

const template = z
  .strictObject(
    {
      name: z
        .string({ error: says('a text', 'give the approved template\'s name, e.g. "promo_bf"') })
        .regex(/^[a-z0-9_]+$/, {
          error: (iss) =>
            `${JSON.stringify(iss.input)} is not a template name; WhatsApp template names are lower-case letters, digits and "_", e.g. "promo_bf"`,
        })
        .describe('Name of an APPROVED template of the account'),
      language: z
        .string({ error: says('a text', 'give the template\'s language, e.g. "pt_BR"') })
        .regex(/^[a-z]{2}_[A-Z]{2}$/, { error: (iss) => `${JSON.stringify(iss.input)} is not of the form xx_XX, e.g. pt_BR` })
        .describe('Template language, xx_XX, e.g. pt_BR'),
      variables,
    },
    { error: says('an object, e.g. { "name": "promo_bf", "language": "pt_BR" }') },
  )
  .describe('An approved WhatsApp template: the only message allowed outside the 24-hour window');

const mediaType = z
  .string({ error: says('"image", "video", "audio", "document" or a MIME type such as "application/pdf"') })
  .regex(/^(image|video|audio|document|[a-z]+\/[A-Za-z0-9.+-]+)$/, {
    error: (iss) =>
      `${JSON.stringify(iss.input)} is not a media type; use "image", "video", "audio", "document" or a MIME type such as "application/pdf"`,
  });

const media = z
  .strictObject(
    {
      url: z
        .string({ error: says('a text', 'give the file\'s address, e.g. "https://example.com/flyer.jpg"') })
        .regex(/^https?:\/\/[^\s/]+\S*$/, {
          error: (iss) => `${JSON.stringify(iss.input)} is not an http(s) address, e.g. "https://example.com/flyer.jpg"`,
        })
        .describe('Public http(s) address of the file'),
      content_type: mediaType.describe('"image", "video", "audio", "document" or a MIME type'),
      file_name: text('a file name, e.g. "flyer.jpg"').optional(),
    },
    { error: says('an object, e.g. { "url": "https://…/flyer.jpg", "content_type": "image" }') },
  )
  .describe('A file sent with the message: inline on ww, as a follow-up message on wba/whatsapp');

export const messageSchema = z
  .strictObject(
    {
      template: template.optional(),
      text: templated(
        'a text, e.g. "Oi {{name}}, seu cupom é {{coupon}}"',
      )
        .optional()
        .describe('Free text with {{column}} placeholders; on wba/whatsapp only inside the 24-hour window'),
      prefer: z
        .enum(['text', 'template'], { error: says('"text" or "template"') })
        .default('text')
        .describe('Inside the 24-hour window on wba/whatsapp: send the text (default) or the template'),
      media: media.optional(),
    },
    {
      error: says(
        'an object with a template, a text or both',
        'add "message": { "template": { … } } or { "text": "…" } (or both)',
      ),
    },
  )
  .superRefine((value, ctx) => {
    if (!value.template && value.text === undefined) {
      ctx.addIssue({
        code: 'custom',
        input: value,
        message: 'has neither a template nor a text; add "template": { "name", "language" } or "text": "…" (or both)',
      });
    }
    if (value.prefer === 'template' && !value.template) {
      ctx.addIssue({
        code: 'custom',
        path: ['prefer'],
        input: value.prefer,
        message: 'is "template" but there is no message.template; add one or set prefer to "text"',
      });
    }
  });

const conversation = z
  .strictObject({
    topic: text('a text, e.g. "black friday"').optional(),
    pipeline_id: id(3).optional(),
    pipeline_stage_id: id(12).optional(),
  })
  .prefault({})
  .describe('Where the started conversation goes');

const afterSend = z
  .strictObject({
    tags: z
      .array(text('a tag name, e.g. "bf-2026"'), { error: says('a list of tag names, e.g. ["bf-2026"]') })
      .default([])
      .describe('Tags added to each client after a successful send'),
    custom_fields: z
      .record(
        text('a custom-field key, e.g. "campaign"'),
        templated('a text, e.g. "bf-2026" or "{{coupon}}"'),
        { error: says('an object of custom-field key → value, e.g. { "campaign": "bf-2026" }') },
      )
      .default({})
      .describe('Custom-field values written to each client after a successful send; values may hold {{column}}'),
  })
  .prefault({});

const rate = z
  .strictObject({
    per_second: positiveNumber(1000, 10).default(10).describe('Requests per second, at most'),
    per_minute: positiveNumber(60_000, 300).optional().describe('Requests per minute, at most (besides per_second)'),
    concurrency: wholeNumber(1, 64, 4).default(4).describe('Requests in flight at once, at most'),
  })
  .prefault({});

const retry = z
  .strictObject({
    attempts: wholeNumber(0, 10, 3).default(3).describe('Retries of a failed send after its first try (0: none)'),
    backoff_ms: wholeNumber(0, 600_000, 2000).default(2000).describe('First retry delay in ms; doubles with each retry'),
  })
  .prefault({});

const window = z
  .strictObject({
    safety_margin_minutes: z
      .number({ error: says('a number of minutes from 0 to 1439, e.g. 60') })
      .min(0, { error: says('a number of minutes from 0 to 1439, e.g. 60') })
      .lt(1440, { error: says('a number of minutes from 0 to 1439, e.g. 60') })
      .default(60)
      .describe('Free text only when the last inbound message is younger than 24 hours minus this'),
  })
  .prefault({});

const limits = z
  .strictObject({
    max_reject_ratio: ratio(0.2).default(0.2).describe('Refuse to start when more of the list than this is rejected'),
    max_failure_ratio: ratio(0.5).default(0.5).describe('Abort the run when more sends than this fail'),
  })
  .prefault({});

export const jobSchema = z
  .strictObject(
    {
      $schema: z.string().optional().describe('Path or URL of this JSON Schema, for editors'),
      name,
      contacts,
      company_id: id(1, 'add the platform company\'s id, e.g. "company_id": 1').describe('The platform company'),
      channel_id: id(
        10,
        'add the id of the channel to send through, e.g. "channel_id": 10 (`outreach channels --company-id N` lists them)',
      ).describe('The channel to send through (wba, whatsapp or ww); `outreach channels` lists them'),
      default_country: defaultCountry.optional(),
      columns,
      input,
      message: messageSchema,
      conversation,
      after_send: afterSend,
      rate,
      retry,
      window,
      limits,
    },
    { error: says('a JSON object { … }; see jobs/black-friday.json') },
  )
  .meta({ title: 'outreach job', description: 'One bulk WhatsApp outreach job of the outreach CLI' });

/** A job as validated: every default filled, `contacts` always a list. */
export type Job = z.output<typeof jobSchema>;
/** A job as written in the file. */
export type JobInput = z.input<typeof jobSchema>;
