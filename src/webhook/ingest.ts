/**
 * What the receiver and `sync` do with one message, the same way for both: record it once in the
 * event log and, for an inbound one, move the client's (and phone's) window, on the number its
 * conversation is on when known (the conversation's `channel_id` where the platform shows it, else the
 * number a job of the store started it from). The phone look-up is separate (`linkPhone`), and so is
 * a second look for the number (`linkNumber`), because the receiver does them after answering.
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
  /** The number (channel id) its conversation is on, where the platform shows it (the conversations listing, A8). */
  channelId?: number;
}

export interface Ingest {
  /** Durable in the event log when it resolves; true when the message was new. The window is updated in memory. */
  record(message: IncomingMessage, source: EventSource): Promise<{ isNew: boolean; event: RecordedEvent }>;
  /** Finds the client's phone (maybe asking the platform) and links it in the window store. */
  linkPhone(clientId: string): Promise<string | undefined>;
  /**
   * An inbound message recorded with no number: reads the jobs' states again for its conversation (a job that
   * started since) and, when found, puts the number on its window. The number found, if any.
   */
  linkNumber(event: RecordedEvent): Promise<number | undefined>;
}

export function createIngest(state: WebhookState, phones: PhoneLookup, now: () => Date = () => new Date()): Ingest {
  return {
    async record(message, source) {
      const phone = phones.known(message.clientId);
      const known = state.conversations.get(message.conversationId);
      const channel = message.channelId ?? known?.channel;
      const company = state.conversations.companyOf(known);
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
        ...(channel !== undefined && { channel_id: channel }),
        ...(company !== undefined && { company_id: company }),
      };
      const isNew = await state.events.record(event);
      if (message.direction === 'inbound') {
        state.window.noteInbound({
          clientId: message.clientId,
          ...(phone ? { phone } : {}),
          at: Date.parse(message.createdAt),
          ...(channel !== undefined && { channelId: channel }),
          ...(company !== undefined && { company }),
        });
      }
      return { isNew, event };
    },
    async linkNumber(event) {
      if (event.direction !== 'inbound' || event.channel_id !== undefined) return event.channel_id;
      const known = await state.conversations.resolve(event.conversation_id);
      const channel = known?.channel;
      // The same time with a number: the window keeps the number (a later message's window is not moved back).
      if (channel !== undefined) {
        const phone = event.phone ?? state.window.phoneOf(event.client_id);
        const company = known?.company ?? event.company_id;
        state.window.noteInbound({ clientId: event.client_id, ...(phone ? { phone } : {}), at: Date.parse(event.created_at), channelId: channel, ...(company !== undefined && { company }) });
      }
      return channel;
    },
    async linkPhone(clientId) {
      const phone = await phones.resolve(clientId);
      if (phone) state.window.linkPhone(clientId, phone);
      return phone;
    },
  };
}
