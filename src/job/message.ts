import { z } from 'zod';
import { countryCode, says, templated, text } from './fields.js';
import { normaliseLanguage } from '../locale/language.js';

/**
 * `message`: what each contact receives. The job's own template, text and media are the default;
 * `variants`, tried in order, give contacts of some countries or languages another message. Every
 * variant is folded here into the same complete shape as the default (`prefer` inherited), so the
 * planner picks one and reads it like the default.
 */

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

const messageText = templated('a text, e.g. "Oi {{name}}, seu cupom é {{coupon}}"').describe(
  'Free text with {{column}} placeholders; on wba/whatsapp only inside the 24-hour window',
);

const languageTag = z
  .string({ error: says('a language code such as "es", "es_MX" or "pt-BR"') })
  .transform((value, ctx) => {
    const language = normaliseLanguage(value);
    if (language === undefined) {
      ctx.addIssue({
        code: 'custom',
        input: value,
        message: `${JSON.stringify(value)} is not a language code; write one such as "es", "es_MX" or "pt-BR"`,
      });
      return z.NEVER;
    }
    return language;
  });

const when = z
  .strictObject(
    {
      countries: z
        .array(countryCode(), { error: says('a list of country codes, e.g. ["MX", "CO"]') })
        .min(1, { error: 'must list at least one country code, e.g. ["MX"]' })
        .optional()
        .describe('Contacts whose phone number is of one of these countries (ISO 3166-1 alpha-2)'),
      language: languageTag
        .optional()
        .describe(
          'Contacts whose language cell (columns.language) is this language: "es" matches es, es_MX, es_AR…; "es_MX" matches es_MX only',
        ),
    },
    {
      error: says(
        'an object such as { "countries": ["MX"] } or { "language": "es" }',
        'add "when": { "countries": ["MX"] } or { "language": "es" }',
      ),
    },
  )
  .superRefine(
    (value, ctx) => {
      if (value.countries === undefined && value.language === undefined) {
        ctx.addIssue({
          code: 'custom',
          input: value,
          message: 'names no condition; give "countries": ["MX", …] or "language": "es" (or both, which must both match)',
        });
      }
    },
    // An unknown field ("country" for "countries") is the problem to report, not the condition it left out.
    { when: (payload) => payload.issues.length === 0 },
  )
  .describe('Which contacts get this variant; with both fields, both must match');

const variantName = text('a short name for the report, e.g. "mexico"')
  .max(50, { error: 'must be at most 50 characters' })
  .refine((value) => !/^\d+$/.test(value) && value.toLowerCase() !== 'default', {
    error: (iss) => `${JSON.stringify(iss.input)} would read as a variant's index or the default message in the report; use a word, e.g. "mexico"`,
  });

/** A variant as written: `when`, and a message of its own (it inherits nothing but `prefer`). */
export const variantObject = z
  .strictObject(
    {
      name: variantName.optional().describe('Names the variant in the plan and the report (otherwise its index, from 0)'),
      when,
      template: template.optional(),
      text: messageText.optional(),
      media: media.optional(),
    },
    {
      error: says(
        'an object such as { "when": { "countries": ["MX"] }, "template": { … } }',
      ),
    },
  )
  .superRefine((value, ctx) => {
    if (!value.template && value.text === undefined) {
      ctx.addIssue({
        code: 'custom',
        input: value,
        message:
          'has neither a template nor a text; add "template": { "name", "language" } or "text": "…" (or both): a variant replaces the whole message, so nothing of the default carries over',
      });
    }
  })
  .describe('Another message for the contacts it matches; the first variant that matches is the contact\'s message');

const variants = z
  .array(variantObject, {
    error: says('a list of variants, e.g. [{ "when": { "countries": ["MX"] }, "template": { … } }]'),
  })
  .default([])
  .superRefine((list, ctx) => {
    const first = new Map<string, number>();
    list.forEach((variant, i) => {
      if (variant.name === undefined) return;
      const key = variant.name.toLowerCase();
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, i);
      else {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'name'],
          input: variant.name,
          message: `"${variant.name}" is also the name of message.variants[${earlier}]; give each variant its own name`,
        });
      }
    });
  })
  .describe('Messages for contacts of some countries or languages, tried in order; the first that matches is the contact\'s message');

/** The message as written; `messageSchema` folds it. */
export const messageObject = z
  .strictObject(
    {
      template: template.optional(),
      text: messageText.optional(),
      prefer: z
        .enum(['text', 'template'], { error: says('"text" or "template"') })
        .default('text')
        .describe('Inside the 24-hour window on wba/whatsapp: send the text (default) or the template'),
      media: media.optional(),
      variants,
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

export type Template = z.output<typeof template>;
export type Media = z.output<typeof media>;

/** One message as the planner reads it: the job's default, or a variant's. */
export interface MessageContent {
  template?: Template;
  text?: string;
  prefer: 'text' | 'template';
  media?: Media;
}

/** Which contacts a variant is for; with both fields, both must match. */
export interface VariantWhen {
  /** ISO 3166-1 alpha-2 codes, matched against the contact's number. */
  countries?: z.output<ReturnType<typeof countryCode>>[];
  /** Normalised: `es` or `es_MX`. */
  language?: string;
}

export interface Variant {
  name?: string;
  when: VariantWhen;
  /** Complete: its own template, text and media, and the job's `prefer`. */
  message: MessageContent;
}

/** The job's message: the default content, and its variants in order. */
export type Message = MessageContent & { variants: Variant[] };

export const messageSchema = messageObject.transform((value): Message => {
  const { variants: written, ...content } = value;
  return {
    ...content,
    variants: written.map((v) => ({
      ...(v.name !== undefined ? { name: v.name } : {}),
      when: v.when,
      message: {
        ...(v.template !== undefined ? { template: v.template } : {}),
        ...(v.text !== undefined ? { text: v.text } : {}),
        prefer: value.prefer,
        ...(v.media !== undefined ? { media: v.media } : {}),
      },
    })),
  };
});
