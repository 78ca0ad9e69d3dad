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

/** What is known of a message besides itself when it is recorded. */
export interface Attribution {
  phone?: string;
  /** The number its conversation is on. */
  channel?: number;
  company?: number;
}

/** A message as the store records it, with what is known of it (`receivedAt` ISO). Pure. */
export function describeMessage(message: IncomingMessage, source: EventSource, receivedAt: string, known: Attribution = {}): RecordedEvent {
  const channel = message.channelId ?? known.channel;
  return {
    message_id: message.messageId,
    conversation_id: message.conversationId,
    client_id: message.clientId,
    direction: message.direction,
    sender_type: message.senderType,
    ...(message.content !== undefined ? { content: message.content } : {}),
    created_at: message.createdAt,
    received_at: receivedAt,
    source,
    ...(known.phone ? { phone: known.phone } : {}),
    ...(channel !== undefined && { channel_id: channel }),
    ...(known.company !== undefined && { company_id: known.company }),
  };
}

export interface Ingest {
  /** The event of the message with what is known of it now (its phone, number and company), nothing written. */
  describe(message: IncomingMessage, source: EventSource): RecordedEvent;
  /** Durable in the event log when it resolves; true when the message was new. The window is updated in memory. */
  record(message: IncomingMessage, source: EventSource): Promise<{ isNew: boolean; event: RecordedEvent }>;
  /** `record` of an event already described (one kept in the receiver's spool). */
  recordEvent(event: RecordedEvent): Promise<{ isNew: boolean; event: RecordedEvent }>;
  /**
   * The event with what it lacks filled in as far as can be known now without asking the platform: its
   * phone, the number and the company of its conversation (reading the jobs' states again when the
   * conversation is not known). For an event kept while the store could not be read.
   */
  complete(event: RecordedEvent): Promise<RecordedEvent>;
  /** Finds the client's phone (maybe asking the platform) and links it in the window store. */
  linkPhone(clientId: string): Promise<string | undefined>;
  /**
   * An inbound message recorded with no number: reads the jobs' states again for its conversation (a job that
   * started since) and, when found, puts the number on its window. The number found, if any.
   */
  linkNumber(event: RecordedEvent): Promise<number | undefined>;
}

export function createIngest(state: WebhookState, phones: PhoneLookup, now: () => Date = () => new Date()): Ingest {
  async function recordEvent(event: RecordedEvent): Promise<{ isNew: boolean; event: RecordedEvent }> {
    const isNew = await state.events.record(event);
    if (event.direction === 'inbound') {
      state.window.noteInbound({
        clientId: event.client_id,
        ...(event.phone ? { phone: event.phone } : {}),
        at: Date.parse(event.created_at),
        ...(event.channel_id !== undefined && { channelId: event.channel_id }),
        ...(event.company_id !== undefined && { company: event.company_id }),
      });
    }
    return { isNew, event };
  }
  const describe = (message: IncomingMessage, source: EventSource): RecordedEvent => {
    const known = state.conversations.get(message.conversationId);
    const phone = phones.known(message.clientId);
    const company = state.conversations.companyOf(known);
    return describeMessage(message, source, now().toISOString(), {
      ...(phone !== undefined && { phone }),
      ...(known?.channel !== undefined && { channel: known.channel }),
      ...(company !== undefined && { company }),
    });
  };
  return {
    describe,
    record: (message, source) => recordEvent(describe(message, source)),
    recordEvent,
    async complete(event) {
      const phone = event.phone ?? phones.known(event.client_id);
      let channel = event.channel_id;
      let company = event.company_id;
      if (channel === undefined || company === undefined) {
        const known = await state.conversations.resolve(event.conversation_id);
        channel ??= known?.channel;
        company ??= state.conversations.companyOf(known);
      }
      return { ...event, ...(phone !== undefined && { phone }), ...(channel !== undefined && { channel_id: channel }), ...(company !== undefined && { company_id: company }) };
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
