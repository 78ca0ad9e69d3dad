import type { Gate } from './input.js';

const HOUR_MS = 3_600_000;

/**
 * `limits.min_hours_between_messages` (24 by default): a contact another job of the state folder
 * messaged less than that long ago waits until that long has passed; 0 turns it off.
 */
export const recentlyMessaged: Gate = ({ job, context }) => {
  const hours = job.limits.min_hours_between_messages;
  const last = context.lastMessagedAt;
  if (hours <= 0 || last === undefined) return undefined;
  const notBefore = last + hours * HOUR_MS;
  return notBefore > context.now ? { kind: 'defer', reason: 'recently_messaged', notBefore } : undefined;
};
