import { DateTime } from 'luxon';
import { z } from 'zod';
import { says } from './fields.js';

/**
 * `start_at` and `run --at` in the forms people write. With an offset (ISO 8601, `Z` or `-03:00`) it
 * is one instant for everyone; without one (`2026-11-28 09:00`, `28/11/2026 09:00`) it is that
 * wall-clock time in each contact's own zone, as quiet hours reason: Manaus starts an hour after São
 * Paulo. A date with slashes is read day first or month first as the person's locale writes dates
 * (`--at`), or when only one reading is a date; one that could be either is refused.
 */

/** A start read: one instant, or a wall-clock time each contact's zone places. */
export type StartAt =
  | { kind: 'instant'; at: number; text: string }
  | { kind: 'local'; year: number; month: number; day: number; hour: number; minute: number; second: number; text: string };

/** How a locale writes a date with slashes: day first (pt-BR, es, en-GB) or month first (en-US). */
export type DateOrder = 'day_first' | 'month_first';

const FORMS = '"2026-11-28 09:00" or "28/11/2026 09:00" (each contact\'s own local time), or with an offset for one instant everywhere, e.g. "2026-11-28T09:00:00-03:00"';

const ISO = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?\s*(Z|[+-]\d\d:?\d\d)?$/i;
const SLASHED = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})[T ,]\s*(\d{1,2}):(\d\d)(?::(\d\d))?$/;

/** The start a text names, or why it names none (with the forms that work). `order`: how the person's locale writes dates. */
export function readStartAt(text: string, order?: DateOrder): { ok: true; start: StartAt } | { ok: false; problem: string } {
  const written = text.trim();
  const iso = ISO.exec(written);
  if (iso) {
    const [, y, mo, d, h, mi, s, offset] = iso;
    const fields = { year: Number(y), month: Number(mo), day: Number(d), hour: Number(h), minute: Number(mi), second: Number(s ?? 0) };
    if (offset === undefined) return local(written, fields);
    const zone = offset.toUpperCase() === 'Z' ? 'UTC' : `UTC${offset.length === 5 ? `${offset.slice(0, 3)}:${offset.slice(3)}` : offset}`;
    const at = DateTime.fromObject(fields, { zone });
    if (!at.isValid) return notATime(written);
    return { ok: true, start: { kind: 'instant', at: at.toMillis(), text: at.toISO({ suppressMilliseconds: true }) ?? written } };
  }
  const slashed = SLASHED.exec(written);
  if (slashed) {
    const [, a, b, y, h, mi, s] = slashed;
    const first = Number(a);
    const second = Number(b);
    const dayFirst = first > 12 ? true : second > 12 ? false : first === second ? true : order === undefined ? undefined : order === 'day_first';
    if (dayFirst === undefined) {
      const time = `${pad(Number(h))}:${mi}${s !== undefined ? `:${s}` : ''}`;
      return {
        ok: false,
        problem: `${JSON.stringify(written)} could be ${dayMonth(first, second)} or ${dayMonth(second, first)}; write it year first, "${y}-${pad(second)}-${pad(first)} ${time}" or "${y}-${pad(first)}-${pad(second)} ${time}"`,
      };
    }
    const [day, month] = dayFirst ? [first, second] : [second, first];
    return local(written, { year: Number(y), month, day, hour: Number(h), minute: Number(mi), second: Number(s ?? 0) });
  }
  return notATime(written);
}

function local(written: string, fields: { year: number; month: number; day: number; hour: number; minute: number; second: number }) {
  if (!DateTime.fromObject(fields, { zone: 'UTC' }).isValid) return notATime(written);
  const text = `${fields.year}-${pad(fields.month)}-${pad(fields.day)}T${pad(fields.hour)}:${pad(fields.minute)}:${pad(fields.second)}`;
  return { ok: true as const, start: { kind: 'local' as const, ...fields, text } };
}

function notATime(written: string): { ok: false; problem: string } {
  return { ok: false, problem: `${JSON.stringify(written)} is not a date and time this reads; write ${FORMS}` };
}

/** "5 November": a day and a month, in English. */
function dayMonth(day: number, month: number): string {
  return `${day} ${new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, month - 1, 1))}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Why `text` is not a start, or undefined when it is one (a job's start_at: dates with slashes only when one reading is a date). */
export function startAtProblem(text: string, order?: DateOrder): string | undefined {
  const read = readStartAt(text, order);
  return read.ok ? undefined : read.problem;
}

/** A start as the job keeps it (`start_at` after loading): an instant with its offset, or a wall-clock time without one. */
export function parseStartAt(canonical: string): StartAt | undefined {
  const read = readStartAt(canonical);
  return read.ok ? read.start : undefined;
}

/** When a start comes in `zone` (epoch ms): the instant itself, or the wall-clock time there (a time a DST day skips moves forward, as clocks do). Pure. */
export function startInstant(start: StartAt, zone: string): number {
  if (start.kind === 'instant') return start.at;
  const { year, month, day, hour, minute, second } = start;
  return DateTime.fromObject({ year, month, day, hour, minute, second }, { zone }).toMillis();
}

export const startAt = z
  .string({ error: says(`a date and time, e.g. ${FORMS}`) })
  .transform((value, ctx) => {
    const read = readStartAt(value);
    if (read.ok) return read.start.text;
    ctx.addIssue({ code: 'custom', input: value, message: read.problem });
    return z.NEVER;
  })
  .optional()
  .describe(
    'Send nobody before this time: "2026-11-28 09:00" (or "28/11/2026 09:00") is that time in each contact\'s own zone; with an offset ("2026-11-28T09:00:00-03:00") one instant for everyone. A run started earlier defers every contact until then (`run --wait` waits)',
  );
