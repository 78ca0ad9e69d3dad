/**
 * The store's shared parts the webhook writes, opened together: the event log, and the window store
 * (rebuilt from the log's inbound events on opening, so a crash between the two never leaves the
 * window behind for long).
 */
import type { EventsLog, StateStore, WindowStore } from '../checkpoint/index.js';
import { knownConversations, type KnownConversations } from './known-conversations.js';

export interface WebhookState {
  store: StateStore;
  events: EventsLog;
  window: WindowStore;
  /** The number each conversation the store's jobs started is on (a reply's window is that number's). */
  conversations: KnownConversations;
  /** Flushes the window store and closes the log. */
  close(): Promise<void>;
}

/** `company`: the company of a message nothing else attributes (`--company`), when the store holds several. */
export async function openWebhookState(store: StateStore, options: { company?: number } = {}): Promise<WebhookState> {
  const window = await store.openWindowStore();
  const conversations = knownConversations(store, options);
  await conversations.load();
  const events = await store.openEventsLog({
    onLoad(event) {
      if (event.direction !== 'inbound') return;
      window.noteInbound({
        clientId: event.client_id,
        ...(event.phone ? { phone: event.phone } : {}),
        at: Date.parse(event.created_at),
        ...(event.channel_id !== undefined && { channelId: event.channel_id }),
        ...(event.company_id !== undefined && { company: event.company_id }),
      });
    },
  });
  await window.flush();
  return {
    store,
    events,
    window,
    conversations,
    async close() {
      try {
        await window.flush();
      } finally {
        await events.close();
      }
    },
  };
}
