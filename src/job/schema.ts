import { z } from 'zod';
import { countryCode, id, positiveNumber, ratio, says, templated, text, wholeNumber } from './fields.js';
import { experimentSchema, firstArm } from './experiment.js';
import { followUpSchema } from './follow-up.js';
import { messageSchema, type Message } from './message.js';
import { parseStartAt, startAt } from './start-at.js';
import { dailyUniqueRecipients, defaultTimezone, minHoursBetweenMessages, repeatMessage, requireOptIn, sendWindowSchema } from './send-window.js';

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

const defaultCountry = countryCode().describe(
  'Country of phone numbers written without a country code (ISO 3166-1 alpha-2, e.g. BR); a row\'s country cell comes first',
);

const column = text('the header of a column of the contact list, e.g. "Phone"');
const columns = z
  .strictObject({
    phone: column.default('phone'),
    name: column.default('name'),
    lastname: column.default('lastname'),
    email: z
      .unknown()
      .optional()
      .superRefine((value, ctx) => {
        if (value === undefined) return;
        ctx.addIssue({
          code: 'custom',
          input: value,
          message:
            'goes nowhere: the platform takes no e-mail address with a message (start-whatsapp has no email field), so outreach cannot put it on the client; remove it (the column still fills {{placeholders}} by its own header)',
        });
      })
      .transform(() => undefined)
      .describe('Refused: the platform takes no e-mail address with a message; a column of the list fills {{placeholders}} by its own header'),
    last_inbound_at: column.default('last_inbound_at'),
    country: column
      .optional()
      .describe(
        'Each row\'s country (ISO code, or a name in English, Portuguese or Spanish): reads that row\'s numbers written without a country code; read only when given',
      ),
    language: column
      .optional()
      .describe('Each row\'s language (es, es_MX, pt-BR), matched by message.variants[].when.language; read only when given'),
    opt_in: column
      .optional()
      .describe('Each row\'s consent (yes, y, true, 1, sim, sí, x, or the date of the opt-in), read by require_opt_in; read only when given'),
    timezone: column
      .optional()
      .describe('Each row\'s IANA time zone (America/Sao_Paulo), for send_window with "timezone": "recipient"; read only when given'),
  })
  .prefault({})
  .transform(({ email: _refused, ...rest }) => rest)
  .describe('Which column holds each field; each defaults to the column of the same name (country and language: none)');

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

const concurrencyError = says('"auto" or a whole number from 1 to 1000, e.g. "auto" or 64');
const concurrency = z
  .union(
    [
      z.literal('auto', { error: concurrencyError }),
      z
        .number({ error: concurrencyError })
        .int({ error: concurrencyError })
        .min(1, { error: concurrencyError })
        .max(1000, { error: concurrencyError }),
    ],
    { error: concurrencyError },
  )
  .default('auto')
  .describe(
    'Requests in flight at once: "auto" sizes it from the measured answer time so per_second is reached (up to max_concurrency), or a fixed number',
  );

const rate = z
  .strictObject({
    per_second: positiveNumber(1000, 10).default(10).describe('Requests per second, at most'),
    per_minute: positiveNumber(60_000, 300).optional().describe('Requests per minute, at most (besides per_second)'),
    concurrency,
    max_concurrency: wholeNumber(1, 1000, 1000)
      .default(1000)
      .describe('With concurrency "auto": the most requests in flight at once'),
    timeout_s: wholeNumber(1, 600, 30)
      .default(30)
      .describe('Seconds to wait for an answer; a request unanswered past it is in doubt (it may have reached the platform)'),
    http2: z
      .boolean({ error: says('true or false') })
      .default(true)
      .describe(
        'Offer HTTP/2 to the platform: lookups then share a few connections (each send still has a connection to itself); false keeps HTTP/1.1',
      ),
  })
  .prefault({});

const retry = z
  .strictObject({
    attempts: wholeNumber(0, 10, 3).default(3).describe('Retries of a failed send after its first try (0: none)'),
    backoff_ms: wholeNumber(0, 600_000, 2000).default(2000).describe('First retry delay in ms; doubles with each retry'),
    marketing_limit_hours: positiveNumber(720, 24)
      .default(24)
      .describe("Hours a contact refused for WhatsApp's per-user marketing limit (131049) waits before it may be sent again; doubles with each repeat"),
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
    daily_unique_recipients: dailyUniqueRecipients,
    min_hours_between_messages: minHoursBetweenMessages,
    repeat_message: repeatMessage,
  })
  .prefault({});

const track = z
  .strictObject({
    max_age_hours: positiveNumber(24 * 90, 72)
      .default(72)
      .describe('`track` stops reading a message once it is read, failed, or this many hours old'),
    per_second: positiveNumber(1000, 100)
      .default(100)
      .describe("Reads per second, at most, of `track` and `reconcile`: reads send nothing, so they do not wait behind rate.per_second (a 429 slows them)"),
  })
  .prefault({})
  .describe('Delivery tracking after the run (`outreach track`)');

const channelId = id(
  10,
  'add the id of the channel to send through, e.g. "channel_id": 10 (`outreach channels --company-id N` lists them)',
);
/** One channel, or a pool of numbers of the same business (each at its own rate), without repeats. */
const channelIds = z
  .union([channelId, z.array(channelId).min(1, { error: 'must list at least one channel id, e.g. [10, 11]' })], {
    error: says(
      'a channel id or a list of them (a pool of numbers), e.g. 10 or [10, 11, 14]',
      'add the id of the channel to send through, e.g. "channel_id": 10 (`outreach channels --company-id N` lists them)',
    ),
  })
  .superRefine((value, ctx) => {
    if (!Array.isArray(value)) return;
    const twice = value.filter((v, i) => value.indexOf(v) !== i);
    if (twice.length > 0) {
      ctx.addIssue({ code: 'custom', input: value, message: `lists ${[...new Set(twice)].join(', ')} more than once; name each number of the pool once` });
    }
  })
  .describe('The channel to send through (wba, whatsapp or ww), or a list of them: a pool of numbers of the same kind; `outreach channels` lists them');

export const jobSchema = z
  .strictObject(
    {
      $schema: z.string().optional().describe('Path or URL of this JSON Schema, for editors'),
      name,
      contacts: contacts.optional(),
      follow_up: followUpSchema.optional(),
      company_id: id(1, 'add the platform company\'s id, e.g. "company_id": 1').describe('The platform company'),
      channel_id: channelIds,
      default_country: defaultCountry.optional(),
      columns,
      input,
      message: messageSchema.optional(),
      experiment: experimentSchema.optional(),
      conversation,
      after_send: afterSend,
      rate,
      retry,
      window,
      limits,
      send_window: sendWindowSchema.optional(),
      default_timezone: defaultTimezone,
      require_opt_in: requireOptIn,
      track,
      start_at: startAt,
      test_to: z
        .array(text('a phone number, e.g. "+5511987654321"'), { error: says('a list of phone numbers, e.g. ["+5511987654321"]') })
        .min(1, { error: 'must list at least one phone, e.g. ["+5511987654321"]' })
        .optional()
        .describe('Phones of your own team that `outreach run --test-to` sends the message to, with the first rows\' values (never the campaign\'s contacts)'),
    },
    { error: says('a JSON object { … }; see jobs/black-friday.json') },
  )
  .superRefine((job, ctx) => {
    audienceProblems(job, ctx);
    messageProblems(job, ctx);
    zoneProblems(job, ctx);
    // A follow-up reads the earlier job's list with the earlier job's columns: they are checked when it is loaded.
    if (job.follow_up !== undefined) return;
    if (job.require_opt_in && job.columns.opt_in === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['require_opt_in'],
        input: true,
        message: 'needs the column holding each contact\'s consent, and the job names none; set columns.opt_in to its header',
      });
    }
    if (job.columns.language !== undefined) return;
    for (const [where, message] of messagesOf(job)) message.variants.forEach((variant, i) => {
      if (variant.when.language === undefined) return;
      ctx.addIssue({
        code: 'custom',
        path: [...where, 'variants', i, 'when', 'language'],
        input: variant.when.language,
        message:
          'needs to know each contact\'s language, and the job names no language column; set columns.language to the header of the column holding it',
      });
    });
  })
  .transform((job, ctx) => {
    const message = job.message ?? (job.experiment && firstArm(job.experiment));
    if (message === undefined) {
      ctx.addIssue({ code: 'custom', path: ['message'], input: undefined, message: 'is missing; add "message": { "template": { … } } or { "text": "…" } (or both)' });
      return z.NEVER;
    }
    // Folded once too: `channel_id` is the first number, `channels` the whole pool (one id for a single number).
    const { channel_id, ...rest } = job;
    const channels = Array.isArray(channel_id) ? channel_id : [channel_id];
    // One default zone: the job's own, else its send window's (either fills the other).
    const window = job.send_window;
    const zone = job.default_timezone ?? window?.default_timezone;
    const send_window = window && zone !== undefined && window.default_timezone === undefined ? { ...window, default_timezone: zone } : window;
    return { ...rest, ...(send_window && { send_window }), ...(zone !== undefined && { default_timezone: zone }), message, channel_id: channels[0] as number, channels };
  })
  .meta({ title: 'outreach job', description: 'One bulk WhatsApp outreach job of the outreach CLI' });

/** The job's messages with their paths in the file: `message`, or each arm of `experiment`. */
function messagesOf(job: { message?: Message | undefined; experiment?: { arms: Record<string, Message> } | undefined }): Array<[Array<string>, Message]> {
  if (job.experiment) return Object.entries(job.experiment.arms).map(([arm, message]) => [['experiment', 'arms', arm], message]);
  return job.message ? [[['message'], job.message]] : [];
}

/** Exactly one audience: a contact list, or an earlier job's contacts. */
function audienceProblems(job: { contacts?: string[] | undefined; follow_up?: unknown }, ctx: z.RefinementCtx): void {
  if (job.contacts === undefined && job.follow_up === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['contacts'],
      input: undefined,
      message: 'is missing; add the contact list, e.g. "contacts": "../samples/contacts.csv" (relative to the job file), or "follow_up": { "job": … } to follow up an earlier job',
    });
  }
  if (job.contacts !== undefined && job.follow_up !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['contacts'],
      input: job.contacts,
      message: 'cannot go with follow_up, which takes the earlier job\'s contacts; remove one of the two',
    });
  }
}

/** A zone for contacts whose own is unknown, where the job needs one: send_window with "recipient", or a start_at without an offset. */
function zoneProblems(job: { default_timezone?: string | undefined; send_window?: { timezone: string; default_timezone?: string | undefined } | undefined; start_at?: string | undefined }, ctx: z.RefinementCtx): void {
  if (job.default_timezone !== undefined) return;
  const window = job.send_window;
  const own = window?.timezone === 'recipient' && window.default_timezone === undefined;
  if (job.start_at !== undefined && parseStartAt(job.start_at)?.kind === 'local' && (window === undefined || own)) {
    ctx.addIssue({
      code: 'custom',
      path: ['start_at'],
      input: job.start_at,
      message: `${JSON.stringify(job.start_at)} names no offset, so it is each contact's own local time, and the job names no zone for the contacts whose number does not tell theirs; set "default_timezone", e.g. "America/Sao_Paulo", or write the time with an offset for one instant everywhere, e.g. "${job.start_at}-03:00"`,
    });
  }
  if (own) {
    ctx.addIssue({
      code: 'custom',
      path: ['send_window', 'default_timezone'],
      input: undefined,
      message: 'is missing; with "timezone": "recipient" it is the zone of contacts whose own zone is unknown, e.g. "America/Sao_Paulo" (or set the job\'s default_timezone)',
    });
  }
}

/** Exactly one of message and experiment. */
function messageProblems(job: { message?: unknown; experiment?: unknown }, ctx: z.RefinementCtx): void {
  if (job.message !== undefined && job.experiment !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['experiment'], input: job.experiment, message: 'takes the place of message; remove one of the two (the arms are the messages)' });
  }
}

/** A job as validated: every default filled, `contacts` always a list, `channels` the pool (`channel_id` its first). */
export type Job = z.output<typeof jobSchema>;
/** A job as written in the file. */
export type JobInput = z.input<typeof jobSchema>;
