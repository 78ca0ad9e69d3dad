import { parseStartAt, startInstant } from '../../job/index.js';
import { recipientZone, zoneRules } from '../zone.js';
import type { Gate } from './input.js';

/**
 * `start_at`: before it, every contact waits until then (a run started early sends nobody). A start
 * without an offset is that wall-clock time in the contact's own zone (the zone quiet hours use).
 */
export const notYet: Gate = ({ contact, job, context }) => {
  const start = job.start_at === undefined ? undefined : parseStartAt(job.start_at);
  if (start === undefined) return undefined;
  const rules = start.kind === 'local' ? zoneRules(job) : undefined;
  const zone = rules && recipientZone(contact, rules, context.numberZone).zone;
  const startsAt = startInstant(start, zone ?? 'UTC');
  if (context.now >= startsAt) return undefined;
  return { kind: 'defer', reason: 'start_at', notBefore: startsAt, ...(zone !== undefined && { zone }) };
};
