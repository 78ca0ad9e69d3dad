import { DateTime, IANAZone } from 'luxon';
import { CliError } from '../exit.js';

/** This machine's time zone (the `TZ` environment variable when set, else the system's). */
export function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The zone of `--tz` (an IANA name, checked), or this machine's when the flag is not given. */
export function zoneOption(value: string | undefined): string {
  if (value === undefined) return localZone();
  const zone = IANAZone.create(value.trim());
  if (!zone.isValid) throw new CliError(`--tz: "${value}" is not a time zone; give an IANA zone name such as --tz America/Sao_Paulo, or leave --tz out for this machine's zone (${localZone()})`);
  return zone.name;
}

/** The `--tz` option as every command that prints times to people declares it. */
export const TZ_OPTION = ['--tz <zone>', "time zone of the times printed (IANA name, e.g. America/Sao_Paulo; default: this machine's)"] as const;

/**
 * The one way a time is shown to a person, always naming its zone: "14:20 Europe/Lisbon" today,
 * "Tue 09:00 Europe/Lisbon" within six days, "2026-03-20 09:00 Europe/Lisbon" otherwise.
 */
export function formatTime(at: number, zone: string, now: number): string {
  const local = DateTime.fromMillis(at, { zone });
  const today = DateTime.fromMillis(now, { zone });
  const format = local.hasSame(today, 'day') ? 'HH:mm' : Math.abs(at - now) < 6 * 86_400_000 ? 'ccc HH:mm' : 'yyyy-MM-dd HH:mm';
  return `${local.setLocale('en-US').toFormat(format)} ${zone}`;
}

/**
 * A recorded time (ISO 8601) shown in full, to the second, in `zone` and naming it:
 * "2026-11-25 14:20:03 America/Sao_Paulo". A text that is not a time is shown as it is.
 */
export function formatStamp(iso: string, zone: string): string {
  const at = DateTime.fromISO(iso, { zone });
  return at.isValid ? `${at.toFormat('yyyy-MM-dd HH:mm:ss')} ${zone}` : iso;
}
