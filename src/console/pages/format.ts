/** How the console's pages write figures and times for people: report.html's helpers, and a few of its own. */
import { decimal } from '../../locale/people.js';
import { label } from '../../report/html/charts.js';
import { esc, num, pct } from '../../report/html/escape.js';
import { formatDuration } from '../../report/index.js';

export { esc, num, pct };

/** The zone the pages show times in (this machine's), and the moment a page is made. */
export interface Shown {
  zone: string;
  now: number;
}

/** A time for people, in the page's zone, named; the ISO time kept in `datetime`. */
export function time(iso: string, shown: Shown): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return esc(iso);
  return `<time datetime="${esc(iso)}">${esc(label(new Date(at).toISOString(), shown.zone))} ${esc(shown.zone)}</time>`;
}

/** "3m 05s", "1h 02m 00s", "12.0s". */
export function duration(ms: number): string {
  return esc(formatDuration(Math.max(0, ms)));
}

/** A rate with one decimal: 58.3. */
export function rate(x: number): string {
  return esc(decimal({ locale: undefined }, x, 1));
}

/** "1 contact", "2 contacts". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${num(n)} ${n === 1 ? one : many}`;
}

/** The path of a job's page (its key as one path segment). */
export function jobPath(key: string, rest = ''): string {
  return `/jobs/${encodeURIComponent(key)}${rest}`;
}
