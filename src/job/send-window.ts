import { z } from 'zod';
import { says, wholeNumber } from './fields.js';

/**
 * The compliance parts of a job: the sending window in the recipient's local time (quiet hours),
 * the consent requirement, and the account's messaging limit and frequency cap.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** "09:00", "20:30" or "09:00:30"; "24:00" only as the end of a day. */
const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$|^24:00(?::00)?$/;

/** Seconds since midnight of a valid clock time. */
export function secondsOfDay(time: string): number {
  const [h = '0', m = '0', s = '0'] = time.split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/** The canonical name of an IANA time zone (`america/sao_paulo` → `America/Sao_Paulo`), or undefined when it is none. */
export function canonicalZone(zone: string): string | undefined {
  if (zone.trim() === '') return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone.trim() }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

const clock = (example: string) =>
  z
    .string({ error: says(`a time of day as HH:MM, e.g. "${example}"`) })
    .regex(CLOCK, { error: (iss) => `${JSON.stringify(iss.input)} is not a time of day as HH:MM (00:00 to 24:00), e.g. "${example}"` });

const zone = (example: string) =>
  z
    .string({ error: says(`an IANA time zone, e.g. "${example}"`) })
    .transform((value, ctx) => {
      const name = canonicalZone(value);
      if (name !== undefined) return name;
      ctx.addIssue({ code: 'custom', input: value, message: `${JSON.stringify(value)} is not an IANA time zone; write one such as "${example}" or "UTC"` });
      return z.NEVER;
    });

export const sendWindowSchema = z
  .strictObject({
    from: clock('09:00').describe('Local time the window opens (HH:MM, seconds optional)'),
    to: clock('20:00').describe('Local time the window closes (HH:MM, up to 24:00); later than from'),
    days: z
      .array(z.enum(WEEKDAYS, { error: says('one of "mon", "tue", "wed", "thu", "fri", "sat", "sun"') }), {
        error: says('a list of weekdays, e.g. ["mon", "tue", "wed", "thu", "fri"]'),
      })
      .min(1, { error: 'must name at least one day, e.g. ["mon", "tue", "wed", "thu", "fri"]' })
      .default([...WEEKDAYS])
      .describe('The local weekdays the window opens on (default: every day)'),
    timezone: z
      .string({ error: says('"recipient" or an IANA time zone, e.g. "America/Sao_Paulo"') })
      .transform((value, ctx) => {
        if (value.trim().toLowerCase() === 'recipient') return 'recipient';
        const name = canonicalZone(value);
        if (name !== undefined) return name;
        ctx.addIssue({ code: 'custom', input: value, message: `${JSON.stringify(value)} is neither "recipient" nor an IANA time zone; write "recipient" or a zone such as "America/Sao_Paulo"` });
        return z.NEVER;
      })
      .default('recipient')
      .describe(
        '"recipient": each contact\'s own zone (columns.timezone, else the zone of the phone\'s country, else default_timezone); or one IANA zone for everybody',
      ),
    default_timezone: zone('America/Sao_Paulo')
      .optional()
      .describe('The zone of a contact whose own zone is unknown (no timezone cell, a number of several zones); with "recipient", this or the job\'s default_timezone is required'),
  })
  .superRefine((window, ctx) => {
    if (secondsOfDay(window.from) >= secondsOfDay(window.to)) {
      ctx.addIssue({ code: 'custom', path: ['to'], input: window.to, message: `must be later than from (${window.from}); a window cannot cross midnight` });
    }
    // A missing default_timezone is told at the job's level: the job's own default_timezone stands for it.
  })
  .describe('Quiet hours: send only between from and to, local time, on the given days; other contacts are deferred to their next opening');

export type SendWindow = z.output<typeof sendWindowSchema>;

/** The job's own `default_timezone`: an IANA zone, canonical. */
export const defaultTimezone = zone('America/Sao_Paulo')
  .optional()
  .describe(
    "The zone of contacts whose own zone is unknown (no timezone cell, a number whose numbering plan names several zones), for send_window and a start_at without an offset; and the zone of the times printed for people when neither --tz nor TZ is given",
  );

export const requireOptIn = z
  .boolean({ error: says('true or false') })
  .default(false)
  .describe('Send only to contacts whose columns.opt_in cell is a clear yes (yes, y, true, 1, sim, sí, x, a date); skip the others as no_opt_in');

export const dailyUniqueRecipients = wholeNumber(1, Number.MAX_SAFE_INTEGER, 250)
  .optional()
  .describe(
    "The account's messaging limit (250, 2000, 10000, 100000): distinct recipients messaged outside their 24-hour window in any rolling 24 hours, across every job of the company",
  );

export const repeatMessage = z
  .boolean({ error: says('true or false') })
  .default(false)
  .describe(
    'Send this message even to contacts another job of the company already sent the very same message (the same template and values, or the same text); by default they are skipped already_sent, and `plan` warns when this is on',
  );

/** The frequency cap's default: a day between two jobs' first messages to one person. */
export const DEFAULT_MIN_HOURS_BETWEEN_MESSAGES = 24;

export const minHoursBetweenMessages = z
  .number({ error: says('a number of hours from 0 (off) to 8760, e.g. 24') })
  .min(0, { error: says('a number of hours from 0 (off) to 8760, e.g. 24') })
  .max(8760, { error: says('a number of hours from 0 (off) to 8760 (a year), e.g. 24') })
  .default(DEFAULT_MIN_HOURS_BETWEEN_MESSAGES)
  .describe(
    'Defer a contact who got a first message (of another message) from another job of the company less than this many hours ago (default 24); 0 turns the protection off',
  );
