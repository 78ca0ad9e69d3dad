/**
 * Figures and times as a person reads them: in their locale (`--locale`, else the environment's
 * LC_ALL, else LANG; pt-BR writes 4.521, 43,3% and 28/11/2026, 09:00) and in their zone, named.
 * Intl does the writing. Without a locale (none set, or C/POSIX) figures are grouped as in English
 * and times are written year first (2026-11-28 09:00), as before. Files for machines (CSV, JSON,
 * logs) never come here. Imports nothing of the project.
 */

/** How a person reads figures and times: their locale (undefined: none), and the zone times are shown in. */
export interface ForPeople {
  locale: string | undefined;
  zone: string;
}

/** `pt_BR.UTF-8`, `pt-BR`, `es_MX` → a BCP 47 tag Intl knows (`pt-BR`); undefined for none, C or POSIX, or a text that is no locale. */
export function readLocale(text: string | undefined): string | undefined {
  const base = text?.trim().split(/[.@]/)[0]?.replaceAll('_', '-');
  if (base === undefined || base === '' || base === 'C' || base === 'POSIX') return undefined;
  try {
    const [tag] = Intl.getCanonicalLocales(base);
    return tag !== undefined && Intl.NumberFormat.supportedLocalesOf([tag]).length > 0 ? tag : undefined;
  } catch {
    return undefined;
  }
}

/** The environment's locale for people: LC_ALL, else LANG (as POSIX orders them); undefined when neither names one. */
export function localeFromEnv(env: Record<string, string | undefined>): string | undefined {
  const all = env.LC_ALL?.trim();
  if (all) return readLocale(all);
  return readLocale(env.LANG);
}

/** How the locale writes a date with numbers: day first (pt-BR) or month first (en-US); undefined without a locale. */
export function dateOrder(locale: string | undefined): 'day_first' | 'month_first' | undefined {
  if (locale === undefined) return undefined;
  const parts = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'UTC' }).formatToParts(0);
  const day = parts.findIndex((p) => p.type === 'day');
  const month = parts.findIndex((p) => p.type === 'month');
  return day < month ? 'day_first' : 'month_first';
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string | undefined, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${locale ?? ''}|${key}`;
  let format = numberFormats.get(id);
  if (format === undefined) numberFormats.set(id, (format = new Intl.NumberFormat(locale ?? 'en-US', options)));
  return format;
}

/** A count: 4,521 (4.521 in pt-BR). */
export function count(p: Pick<ForPeople, 'locale'>, n: number): string {
  return numberFormat(p.locale, 'count', { maximumFractionDigits: 0 }).format(n);
}

/** A share as a percentage with one decimal: 43.3% (43,3% in pt-BR). */
export function percent(p: Pick<ForPeople, 'locale'>, ratio: number, digits = 1): string {
  return numberFormat(p.locale, `percent${digits}`, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(ratio);
}

/** A number with up to `digits` decimals: 2.5 (2,5 in pt-BR). */
export function decimal(p: Pick<ForPeople, 'locale'>, x: number, digits = 1): string {
  return numberFormat(p.locale, `decimal${digits}`, { maximumFractionDigits: digits }).format(x);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(locale: string, zone: string, key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `${locale}|${zone}|${key}`;
  let format = dateFormats.get(id);
  if (format === undefined) dateFormats.set(id, (format = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone })));
  return format;
}

const DAY_MS = 86_400_000;

/**
 * A time in the locale, in `zone` (naming it): the time alone on the same day as `now`, with the
 * weekday within six days, with the date otherwise ("09:00", "sáb., 09:00", "28/11/2026, 09:00" in
 * pt-BR). Undefined without a locale: the caller writes its own year-first form.
 */
export function localTime(p: Pick<ForPeople, 'locale'>, at: number, zone: string, now: number): string | undefined {
  if (p.locale === undefined) return undefined;
  const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
  const day = dateFormat(p.locale, zone, 'day', { year: 'numeric', month: '2-digit', day: '2-digit' });
  const format = day.format(at) === day.format(now)
    ? dateFormat(p.locale, zone, 'time', time)
    : Math.abs(at - now) < 6 * DAY_MS
      ? dateFormat(p.locale, zone, 'weekday', { weekday: 'short', ...time })
      : dateFormat(p.locale, zone, 'date', { year: 'numeric', month: '2-digit', day: '2-digit', ...time });
  return `${format.format(at)} ${zone}`;
}

/** A recorded time to the second, in the locale and `zone`, naming it ("28/11/2026, 09:00:03 America/Sao_Paulo"); undefined without a locale. */
export function localStamp(p: Pick<ForPeople, 'locale'>, at: number, zone: string): string | undefined {
  if (p.locale === undefined) return undefined;
  const format = dateFormat(p.locale, zone, 'stamp', { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return `${format.format(at)} ${zone}`;
}
