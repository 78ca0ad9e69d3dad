import type { ContactStates } from '../../checkpoint/index.js';
import { shouldSend, type RetryMode } from '../../run/index.js';

/** Whether this run may send `phone` a first message: no state, or one `shouldSend` takes up (the status alone decides most). */
export function mayBeSent(states: ContactStates, phone: string, mode: RetryMode): boolean {
  const status = states.statusOf(phone);
  switch (status) {
    case undefined:
    case 'pending':
    case 'deferred':
    case 'skipped':
      return true;
    case 'sent':
      return false;
    default:
      return (status === 'failed' && !mode.retryFailed) || (status === 'in_doubt' && !mode.retryInDoubt) ? false : shouldSend(states.get(phone), mode);
  }
}

/** Whether the job holds a state for `phone` (the status alone is read when the states can). */
export function holds(states: ContactStates, phone: string): boolean {
  return states.statusOf(phone) !== undefined;
}
