/**
 * A contact's time zone, for the sending window and a start_at without an offset: the job's one zone
 * for everybody when its send_window names one; else the contact's zone cell; else the zone the
 * numbering plan gives its phone (`PlanContext.numberZone`: Manaus's area code 92 is America/Manaus);
 * else the job's default_timezone. Pure.
 */
import type { Contact } from '../contacts/types.js';
import type { Job, SendWindow } from '../job/index.js';

/** Where a contact's zone came from: the job names one zone, the contact's cell, its number, or the job's default. */
export type ZoneSource = 'job' | 'column' | 'number' | 'default';

export interface RecipientZone {
  zone: string;
  source: ZoneSource;
}

/** How a job places its contacts in time: each in its own zone (`recipient`, with a default), or all in one. */
export type ZoneRules = Pick<SendWindow, 'timezone' | 'default_timezone'>;

/** The job's zone rules: its send_window's, else each contact's own zone with the job's default_timezone; undefined when it has neither. */
export function zoneRules(job: Partial<Pick<Job, 'send_window' | 'default_timezone'>>): ZoneRules | undefined {
  if (job.send_window) return job.send_window;
  return job.default_timezone !== undefined ? { timezone: 'recipient', default_timezone: job.default_timezone } : undefined;
}

export function recipientZone(contact: Pick<Contact, 'timezone'>, rules: ZoneRules, numberZone?: string): RecipientZone {
  if (rules.timezone !== 'recipient') return { zone: rules.timezone, source: 'job' };
  if (contact.timezone !== undefined) return { zone: contact.timezone, source: 'column' };
  if (numberZone !== undefined) return { zone: numberZone, source: 'number' };
  // The schema requires a default_timezone where the job places contacts in their own zone; UTC only keeps the type honest.
  return { zone: rules.default_timezone ?? 'UTC', source: 'default' };
}
