/**
 * A contact's time zone for the sending window: the job's own zone, else the contact's zone cell,
 * else the zone of the phone's country when the country keeps one time (countries-and-timezones'
 * table), else the job's default. Pure.
 */
import { getTimezonesForCountry } from 'countries-and-timezones';
import type { Contact } from '../contacts/types.js';
import type { SendWindow } from '../job/index.js';

/** Where a contact's zone came from: the job names one zone, the contact's cell, its phone's country, or the job's default. */
export type ZoneSource = 'job' | 'column' | 'country' | 'default';

export interface RecipientZone {
  zone: string;
  source: ZoneSource;
}

const byCountry = new Map<string, string | undefined>();

/**
 * The country's zone when it has one, or several that keep the same time all year (Argentina's
 * twelve are all UTC−3): undefined for countries whose zones differ (Brazil, Mexico, the US).
 */
export function countryZone(country: string): string | undefined {
  if (byCountry.has(country)) return byCountry.get(country);
  const zones = getTimezonesForCountry(country) ?? [];
  const first = zones[0];
  const one = first !== undefined && zones.every((z) => z.utcOffset === first.utcOffset && z.dstOffset === first.dstOffset);
  const zone = one ? first.name : undefined;
  byCountry.set(country, zone);
  return zone;
}

export function recipientZone(contact: Pick<Contact, 'timezone' | 'country'>, window: Pick<SendWindow, 'timezone' | 'default_timezone'>): RecipientZone {
  if (window.timezone !== 'recipient') return { zone: window.timezone, source: 'job' };
  if (contact.timezone !== undefined) return { zone: contact.timezone, source: 'column' };
  const fromCountry = contact.country !== undefined ? countryZone(contact.country) : undefined;
  if (fromCountry !== undefined) return { zone: fromCountry, source: 'country' };
  // The schema requires default_timezone with "recipient"; UTC only keeps the type honest.
  return { zone: window.default_timezone ?? 'UTC', source: 'default' };
}
