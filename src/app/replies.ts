import type { ContactState, SentContact, StateStore } from '../checkpoint/index.js';

/** For each sent contact that wrote back after its message, the time of the first reply (ISO), from the webhook's events. */
export async function repliesOf(store: StateStore, states: ReadonlyMap<string, ContactState>): Promise<Map<string, string>> {
  const sent = new Map<string, SentContact>();
  for (const s of states.values()) {
    if (s.status !== 'sent') continue;
    sent.set(s.phone, { sentAt: s.sentAt, conversationId: s.conversationId, ...(s.clientId !== undefined && { clientId: s.clientId }) });
  }
  return store.replies(sent);
}
