import { count, percent } from '../../locale/people.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for an HTML element or a quoted attribute. */
export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** The locale of the page being rendered (`inLocale`); none: figures grouped as in English. */
let pageLocale: string | undefined;

/**
 * Renders a page with its figures and times in `locale` (`HtmlReportData.locale`): the page is
 * rendered in one synchronous call, and its helpers read the locale of that call.
 */
export function inLocale<T>(locale: string | undefined, render: () => T): T {
  const before = pageLocale;
  pageLocale = locale;
  try {
    return render();
  } finally {
    pageLocale = before;
  }
}

/** The locale of the page being rendered. */
export function currentLocale(): string | undefined {
  return pageLocale;
}

/** `1,234` (`1.234` in pt-BR). */
export function num(n: number): string {
  return count({ locale: pageLocale }, n);
}

/** `12.5%` of `of` (0% of none; `12,5%` in pt-BR). */
export function pct(n: number, of: number): string {
  return percent({ locale: pageLocale }, of > 0 ? n / of : 0);
}

/** A share as a percentage: `12.5%`. */
export function share(x: number): string {
  return percent({ locale: pageLocale }, x);
}
