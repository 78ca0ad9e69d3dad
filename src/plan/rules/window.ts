import { isWindowOpen, latestInbound } from '../window.js';
import type { RuleInput } from './input.js';

/** Whether the contact's 24-hour window is open now: the later of the list's and the store's last inbound time. */
export function windowOpen({ contact, job, context }: RuleInput): boolean {
  return isWindowOpen(latestInbound(contact.lastInboundAt, context.lastInboundAt), context.now, job.window.safety_margin_minutes);
}
