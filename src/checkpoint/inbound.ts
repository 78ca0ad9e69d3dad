/**
 * The port's view of the webhook's events: messages the platform reported (each message once,
 * whichever process received it), and what the replies column matches a job's sent contacts on.
 * Every backend stores them its own way; these types are all the rest of the program sees.
 */

export type EventDirection = 'inbound' | 'outbound';
export type EventSource = 'webhook' | 'sync';

/** One message as the store keeps it (snake_case, as on the wire of the webhook). */
export interface RecordedEvent {
  message_id: string;
  conversation_id: string;
  client_id: string;
  direction: EventDirection;
  /** `client`, `user`, `system`, … as the platform says. */
  sender_type: string;
  content?: string;
  /** The message's own time (ISO). */
  created_at: string;
  /** When this process accepted it (ISO). */
  received_at: string;
  source: EventSource;
  /** The client's E.164 phone, when known at recording time. */
  phone?: string;
  /** The number of the business (channel id) the message's conversation is on, when known (a conversation a job of the store started). */
  channel_id?: number;
  /**
   * The company the message belongs to: the company of the job that started its conversation, else the store's
   * only company, else the one the receiver was told (`--company`); absent when none tells (it then counts for every company).
   */
  company_id?: number;
}

/** The store's events, opened by a process that records them (the receiver, `sync`). */
export interface EventsLog {
  /**
   * Records the event unless its message id is already known; true when it was new. Durable when it resolves.
   * An inbound message's window (its client's, and its phone's when known) moves in the same write on the database store; on the file store, at the window store's next flush.
   */
  record(event: RecordedEvent): Promise<boolean>;
  /** Whether the message id is known (loaded at opening or recorded since). */
  has(messageId: string): boolean;
  /** Distinct message ids known (loaded and recorded). */
  readonly size: number;
  /** Waits for pending writes, then lets the log go. */
  close(): Promise<void>;
}

export interface OpenEventsLogOptions {
  /** Called for each event already stored when the log is opened (e.g. to rebuild the window store). */
  onLoad?: (event: RecordedEvent) => void;
}

/** What the replies column needs to know of one sent contact of a job (keyed by its E.164 phone). */
export interface SentContact {
  /** When the job's message went out (ISO). */
  sentAt: string;
  clientId?: string;
  conversationId?: string;
}
