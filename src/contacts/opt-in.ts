import { parseInstant } from './time.js';

/**
 * The consent cell of a contact list: does it clearly say the person opted in? Only a clear yes
 * counts; empty, "no", "0" and anything unclear are not consent.
 */

/** Yes in English, Portuguese and Spanish, spreadsheet booleans (Excel in pt/es writes VERDADEIRO / VERDADERO), marks. */
const YES: ReadonlySet<string> = new Set([
  'yes', 'y', 'true', '1', 'sim', 's', 'si', 'x', 'verdadeiro', 'verdadero', '✓', '✔', '✅', '☑',
]);

/** A date before this year reads as a placeholder (0001-01-01, 1900-01-01, 1970-01-01), not a consent date. */
const FIRST_YEAR = 2000;
/** A consent date may be up to a day ahead of `now` (time zones); later than that it is unclear. */
const FUTURE_SLACK_MS = 86_400_000;

/** `01/03/2025`, `1.3.2025`, `01-03-2025`, `2025/03/01`, each with an optional ` 14:30`, `, 14:30:15` or `T14:30`. */
const DAY_FIRST = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?:(?:,?\s+|t)(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const YEAR_FIRST = /^(\d{4})([/.])(\d{1,2})\2(\d{1,2})(?:(?:,?\s+|t)(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const ISO_YEAR = /^(\d{4})-\d{2}-\d{2}/;

/**
 * True for yes, y, true, 1, sim, s, sí, si, x, ✓ (and ✔ ✅ ☑, VERDADEIRO, VERDADERO), or a date:
 * ISO (`2025-03-01`, `2025-03-01T10:00Z`), `01/03/2025` (day or month first), with or without a time.
 * Case, accents and surrounding space are ignored. A date before 2000, or (when `now` is given) more
 * than a day after `now`, is not a clear yes.
 */
export function isClearYes(cell: string | undefined, now?: number): boolean {
  if (cell === undefined) return false;
  const text = cell.normalize('NFKD').replace(/\p{M}/gu, '').trim().toLowerCase();
  if (text === '') return false;
  if (YES.has(text)) return true;
  const instants = dateReadings(text);
  return instants.some((at) => now === undefined || at <= now + FUTURE_SLACK_MS);
}

/** Every reading of the text as a date from FIRST_YEAR on, as epoch ms (UTC); none when it is not one. */
function dateReadings(text: string): number[] {
  const iso = ISO_YEAR.exec(text);
  if (iso !== null) {
    const at = parseInstant(text);
    return at !== undefined && Number(iso[1]) >= FIRST_YEAR ? [at] : [];
  }
  const dayFirst = DAY_FIRST.exec(text);
  if (dayFirst !== null) {
    const [, a, , b, year, h, m, s] = dayFirst;
    return [utc(year, b, a, h, m, s), utc(year, a, b, h, m, s)].filter((at): at is number => at !== undefined);
  }
  const yearFirst = YEAR_FIRST.exec(text);
  if (yearFirst !== null) {
    const [, year, , month, day, h, m, s] = yearFirst;
    const at = utc(year, month, day, h, m, s);
    return at === undefined ? [] : [at];
  }
  return [];
}

/** The instant of a calendar date and time, or undefined when it does not exist (31/02) or is before FIRST_YEAR. */
function utc(
  yearText: string | undefined,
  monthText: string | undefined,
  dayText: string | undefined,
  hourText: string | undefined,
  minuteText: string | undefined,
  secondText: string | undefined,
): number | undefined {
  const [year, month, day] = [Number(yearText), Number(monthText), Number(dayText)];
  const [hour, minute, second] = [Number(hourText ?? 0), Number(minuteText ?? 0), Number(secondText ?? 0)];
  if (year < FIRST_YEAR || hour > 23 || minute > 59 || second > 59) return undefined;
  const at = Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(at);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? at : undefined;
}
