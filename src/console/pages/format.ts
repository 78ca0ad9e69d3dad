/**
 * How the console's pages write figures and times for people: report.html's helpers, and a few of its own.
 * A page is drawn inside `inPage` (report.html's `inLocale`): its figures and times are then in the
 * console's locale (`--locale`, else LC_ALL/LANG; none: as in English, dates year first).
 */
import { DateTime } from 'luxon';
import { decimal, localStamp } from '../../locale/people.js';
import { label } from '../../report/html/charts.js';
import { currentLocale, esc, inLocale, num, pct } from '../../report/html/escape.js';
import { formatDuration } from '../../report/index.js';

export { esc, num, pct };

/** The zone the pages show times in (`--tz`, else TZ, else this machine's), the locale of their figures and times, and the moment a page is made. */
export interface Shown {
  zone: string;
  locale: string | undefined;
  now: number;
}

/** Draws a page, or a live part of one, with its figures and times in the page's locale. */
export function inPage<T>(shown: Shown, draw: () => T): T {
  return inLocale(shown.locale, draw);
}

/** A time for people, in the page's zone, named; the ISO time kept in `datetime`. */
export function time(iso: string, shown: Shown): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return esc(iso);
  return `<time datetime="${esc(iso)}">${esc(label(new Date(at).toISOString(), shown.zone))} ${esc(shown.zone)}</time>`;
}

/** The moment a page is made, to the second, in the page's zone, named, as plain text (not HTML): "14:03:05 UTC" ("28/11/2026, 09:00:03 America/Sao_Paulo" in pt-BR). */
export function clockTime(shown: Shown): string {
  return (localStamp({ locale: currentLocale() }, shown.now, shown.zone) ?? `${DateTime.fromMillis(shown.now, { zone: shown.zone }).toFormat('HH:mm:ss')} ${shown.zone}`);
}

/** "3m 05s", "1h 02m 00s", "12.0s" (12,0s in pt-BR). */
export function duration(ms: number): string {
  return esc(formatDuration(Math.max(0, ms), currentLocale()));
}

/** A rate with one decimal: 58.3 (58,3 in pt-BR). */
export function rate(x: number): string {
  return esc(decimal({ locale: currentLocale() }, x, 1));
}

/** A number with `digits` decimals: 0.0123 (0,0123 in pt-BR). */
export function fixed(x: number, digits: number): string {
  const locale = currentLocale();
  return esc(locale === undefined ? x.toFixed(digits) : decimal({ locale }, x, digits));
}

/** "1 contact", "2 contacts". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${num(n)} ${n === 1 ? one : many}`;
}

/** The path of a job's page (its key as one path segment). */
export function jobPath(key: string, rest = ''): string {
  return `/jobs/${encodeURIComponent(key)}${rest}`;
}
