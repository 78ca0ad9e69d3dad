/**
 * The state-folder files the webhook writes, opened together: the event log, the window store
 * (rebuilt from the log's inbound events on opening, so a crash between the two never leaves the
 * window behind for long) and the path of sync's bookkeeping.
 */
import {
  globalStatePaths,
  openEventsLog,
  openWindowStore,
  type EventsLog,
  type GlobalStatePaths,
  type WindowStore,
} from '../checkpoint/index.js';

export interface WebhookState {
  paths: GlobalStatePaths;
  events: EventsLog;
  window: WindowStore;
  /** Flushes the window store and closes the log. */
  close(): Promise<void>;
}

export async function openWebhookState(stateDir: string): Promise<WebhookState> {
  const paths = globalStatePaths(stateDir);
  const window = await openWindowStore(paths.window);
  const events = await openEventsLog(paths.events, {
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
    paths,
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
