/**
 * The store's shared parts the webhook writes, opened together: the event log, and the window store
 * (rebuilt from the log's inbound events on opening, so a crash between the two never leaves the
 * window behind for long).
 */
import type { EventsLog, StateStore, WindowStore } from '../checkpoint/index.js';

export interface WebhookState {
  store: StateStore;
  events: EventsLog;
  window: WindowStore;
  /** Flushes the window store and closes the log. */
  close(): Promise<void>;
}

export async function openWebhookState(store: StateStore): Promise<WebhookState> {
  const window = await store.openWindowStore();
  const events = await store.openEventsLog({
    onLoad(event) {
      if (event.direction !== 'inbound') return;
      window.noteInbound({
        clientId: event.client_id,
        ...(event.phone ? { phone: event.phone } : {}),
        at: Date.parse(event.created_at),
      });
    },
  });
  await window.flush();
  return {
    store,
    events,
    window,
    async close() {
      try {
        await window.flush();
      } finally {
        await events.close();
      }
    },
  };
}
