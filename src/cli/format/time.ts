import { DateTime, IANAZone } from 'luxon';
import { localStamp, localTime, readLocale, type ForPeople } from '../../locale/people.js';
import { CliError } from '../exit.js';

/** Who reads: a zone alone (no locale), or a zone and a locale. */
export type Readers = string | ForPeople;

/** The reader as a zone and a locale. */
export function readers(r: Readers): ForPeople {
  return typeof r === 'string' ? { locale: undefined, zone: r } : r;
}

/** The same reader, reading times in another zone (a contact's). */
export function inZone(r: Readers, zone: string | undefined): Readers {
  if (zone === undefined) return r;
  return typeof r === 'string' ? zone : { ...r, zone };
}

/** This machine's time zone (the `TZ` environment variable when set, else the system's). */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * The zone of the times printed: `--tz` (an IANA name, checked), else `TZ` when set, else the job's
 * default_timezone (a UTC server still shows the campaign's zone), else this machine's.
 */
export function zoneOption(value: string | undefined, jobZone?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (value === undefined) return env.TZ !== undefined && env.TZ.trim() !== '' ? localZone() : (jobZone ?? localZone());
  const zone = IANAZone.create(value.trim());
  if (!zone.isValid) throw new CliError(`--tz: "${value}" is not a time zone; give an IANA zone name such as --tz America/Sao_Paulo, or leave --tz out for this machine's zone (${localZone()})`);
  return zone.name;
}

/** The `--tz` option as every command that prints times to people declares it. */
export const TZ_OPTION = ['--tz <zone>', "time zone of the times printed (IANA name, e.g. America/Sao_Paulo; default: $TZ, else the job's default_timezone, else this machine's)"] as const;

/** The `--locale` option of every command that prints figures and times to people. */
export const LOCALE_OPTION = ['--locale <tag>', 'how figures and times are written for people, e.g. pt-BR (4.521, 28/11/2026); default: $LC_ALL, else $LANG; files for machines never change'] as const;

/** The locale of `--locale` (checked), else the environment's (LC_ALL, else LANG), else none. */
export function localeOption(value: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (value === undefined) return readLocale(env.LC_ALL?.trim() || env.LANG);
  const locale = readLocale(value);
  if (locale === undefined) throw new CliError(`--locale: "${value}" is not a locale; give a language tag such as --locale pt-BR, es-MX or en-US`);
  return locale;
}

/** The reader of a command: `--tz` and `--locale` with their defaults (the job's zone when known). */
export function readersOf(flags: { tz?: string; locale?: string }, jobZone?: string): ForPeople {
  return { zone: zoneOption(flags.tz, jobZone), locale: localeOption(flags.locale) };
}

/**
 * The one way a time is shown to a person, always naming its zone: "14:20 Europe/Lisbon" today,
 * "Tue 09:00 Europe/Lisbon" within six days, "2026-03-20 09:00 Europe/Lisbon" otherwise.
 */
export function formatTime(at: number, r: Readers, now: number): string {
  const { zone, locale } = readers(r);
  const shown = localTime({ locale }, at, zone, now);
  if (shown !== undefined) return shown;
  const local = DateTime.fromMillis(at, { zone });
  const today = DateTime.fromMillis(now, { zone });
  const format = local.hasSame(today, 'day') ? 'HH:mm' : Math.abs(at - now) < 6 * 86_400_000 ? 'ccc HH:mm' : 'yyyy-MM-dd HH:mm';
  return `${local.setLocale('en-US').toFormat(format)} ${zone}`;
}

/**
 * A recorded time (ISO 8601) shown in full, to the second, in `zone` and naming it:
 * "2026-11-25 14:20:03 America/Sao_Paulo". A text that is not a time is shown as it is.
 */
export function formatStamp(iso: string, r: Readers): string {
  const { zone, locale } = readers(r);
  const at = DateTime.fromISO(iso, { zone });
  if (!at.isValid) return iso;
  return localStamp({ locale }, at.toMillis(), zone) ?? `${at.toFormat('yyyy-MM-dd HH:mm:ss')} ${zone}`;
}
