import type { ContactStates, SentContact, StateStore } from '../../checkpoint/index.js';

/** For each sent contact that wrote back after its message, the time of the first reply (ISO), from the webhook's events. */
export async function repliesOf(store: StateStore, states: ContactStates): Promise<Map<string, string>> {
  return store.replies(sentContacts(states));
}

/** The sent contacts of a state, as replies are matched on them (through the store's fast path when it has one). */
export function sentContacts(states: ContactStates): Iterable<readonly [string, SentContact]> {
  if (states.sentEntries) return states.sentEntries();
  return (function* () {
    for (const [phone, s] of states) {
      if (s.status === 'sent') yield [phone, { sentAt: s.sentAt, ...(s.clientId !== undefined && { clientId: s.clientId }), conversationId: s.conversationId }] as const;
    }
  })();
}
