import type { Gate } from './input.js';
import { windowOpen } from './window.js';

/**
 * `limits.daily_unique_recipients`: a contact messaged outside the 24-hour window takes room in the
 * account's messaging limit, unless the phone already counts in the rolling 24 hours; with no room
 * left it waits until the oldest counted recipient leaves them.
 */
export const dailyLimit: Gate = (input) => {
  const budget = input.context.budget;
  if (budget === undefined || budget.counted || budget.room > 0 || windowOpen(input)) return undefined;
  return { kind: 'defer', reason: 'daily_limit', notBefore: budget.freesAt };
};
