import { nextOpening } from '../quiet-hours.js';
import { recipientZone } from '../zone.js';
import type { Gate } from './input.js';

/** `send_window`: outside the window in the contact's zone, the contact waits for its next opening. */
export const quietHours: Gate = ({ contact, job, context }) => {
  const window = job.send_window;
  if (window === undefined) return undefined;
  const { zone } = recipientZone(contact, window, context.numberZone);
  const opens = nextOpening(context.now, window, zone);
  return opens === undefined ? undefined : { kind: 'defer', reason: 'quiet_hours', notBefore: opens, zone };
};
