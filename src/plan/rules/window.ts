import { contactInbound, isWindowOpen } from '../window.js';
import type { RuleInput } from './input.js';

/** Whether the contact's 24-hour window is open now: the later of the list's and the store's last inbound time (in a pool, the store's on the contact's number). */
export function windowOpen({ contact, job, context }: RuleInput): boolean {
  return isWindowOpen(contactInbound(contact, context), context.now, job.window.safety_margin_minutes);
}
