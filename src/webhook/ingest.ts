/**
 * What the receiver and `sync` do with one message, the same way for both: record it once in the
 * event log and, for an inbound one, move the client's (and phone's) window. The phone look-up
 * is separate (`linkPhone`) because the receiver does it after answering.
 */
import type { EventDirection, EventSource, RecordedEvent } from '../checkpoint/index.js';
import type { PhoneLookup } from './phone-lookup.js';
import type { WebhookState } from './state.js';

/** A message as either source sees it. */
export interface IncomingMessage {
  messageId: string;
  conversationId: string;
  clientId: string;
  direction: EventDirection;
  senderType: string;
  content?: string;
  /** ISO. */
  createdAt: string;
}

export interface Ingest {
  /** Durable in the event log when it resolves; true when the message was new. The window is updated in memory. */
  record(message: IncomingMessage, source: EventSource): Promise<{ isNew: boolean; event: RecordedEvent }>;
  /** Finds the client's phone (maybe asking the platform) and links it in the window store. */
  linkPhone(clientId: string): Promise<string | undefined>;
}

export function createIngest(state: WebhookState, phones: PhoneLookup, now: () => Date = () => new Date()): Ingest {
  return {
    async record(message, source) {
      const phone = phones.known(message.clientId);
      const event: RecordedEvent = {
        message_id: message.messageId,
        conversation_id: message.conversationId,
        client_id: message.clientId,
        direction: message.direction,
        sender_type: message.senderType,
        ...(message.content !== undefined ? { content: message.content } : {}),
        created_at: message.createdAt,
        received_at: now().toISOString(),
        source,
        ...(phone ? { phone } : {}),
      };
      const isNew = await state.events.record(event);
      if (message.direction === 'inbound') {
        state.window.noteInbound({
          clientId: message.clientId,
          ...(phone ? { phone } : {}),
          at: Date.parse(message.createdAt),
        });
      }
      return { isNew, event };
    },
    async linkPhone(clientId) {
      const phone = await phones.resolve(clientId);
      if (phone) state.window.linkPhone(clientId, phone);
      return phone;
    },
  };
}
