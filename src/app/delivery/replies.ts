import type { ContactStates, SentContact, StateStore } from '../../checkpoint/index.js';

/** For each sent contact that wrote back after its message, the time of the first reply (ISO), from the webhook's events. */
export async function repliesOf(store: StateStore, states: ContactStates): Promise<Map<string, string>> {
  return store.replies(sentContacts(states));
}

/** The sent contacts of a state, as replies are matched on them. */
export function sentContacts(states: ContactStates): Iterable<readonly [string, SentContact]> {
  return states.sentEntries();
}
