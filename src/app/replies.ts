import type { ContactStates, StateStore } from '../checkpoint/index.js';
import { sentContacts } from './listing.js';

/** For each sent contact that wrote back after its message, the time of the first reply (ISO), from the webhook's events. */
export async function repliesOf(store: StateStore, states: ContactStates): Promise<Map<string, string>> {
  return store.replies(sentContacts(states));
}
