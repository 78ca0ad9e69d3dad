import type { ConversationStatus, DeliveryStatus, TemplateDisplay } from './assumptions.js';
import type { CodeShares } from './code-shares.js';
import type { ProviderCode } from './provider-codes.js';
import type { ActiveDelivery, DeliveryPlan, SimDelivery, SimProviderState } from './provider-types.js';

/** Faults the simulator can inject; every field may change at run time (`setFaults`, POST /__sim/faults). */
export interface SimFaults {
  /** 0..1 share of sends (start-whatsapp, messages, wba-send-template) that fail with 502 after client+conversation exist. */
  failRate?: number;
  /** Web-session service down: every send on a `ww` channel 502s (ids returned on start-whatsapp). */
  wwDown?: boolean;
  /** Request-rate limit across all API requests (not /__sim/): over it → 429 + Retry-After, nothing done. 0 or absent = none. */
  rateLimitPerSecond?: number;
  /** Added latency before answering, in ms. */
  latencyMs?: number;
  /** Each request's latency is drawn uniformly from latencyMs ± this (never below 0), seeded (S50). */
  latencyJitterMs?: number;
  /** 0..1 share of API requests whose socket is destroyed with no answer. */
  dropRate?: number;
  /** Drop after doing the work (so the send happened) instead of before. */
  dropAfterProcessing?: boolean;
  /**
   * Share 0..1 of wba/whatsapp sends the provider refuses with each code (total at most 1), e.g.
   * `{131026: 0.05, 131049: 0.02}`: a 502 whose message is `(#131026) Message undeliverable.` (S48).
   * Setting it replaces the whole map.
   */
  providerErrors?: CodeShares;
}

export interface WebhookConfig {
  url: string;
  secret: string;
}

export interface SimOptions {
  /** 0 = ephemeral. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 'sim-token'. */
  token?: string;
  webhook?: WebhookConfig;
  faults?: SimFaults;
  /** Deterministic randomness for faults. */
  seed?: number;
  /** Epoch ms the simulated clock starts at; default Date.now(). */
  startTime?: number;
  /** Default true. */
  logRequests?: boolean;
  /** Entries of the request log kept (oldest half dropped beyond it); default 200,000. */
  requestLogLimit?: number;
  /** Webhook delivery timeout in ms; default WEBHOOK_TIMEOUT_MS (10,000, documented). Tests use a short one. */
  webhookTimeoutMs?: number;
  /**
   * The wall clock (epoch ms) that the rate limit, the request log's `wall` and the running of the simulated
   * clock read; default Date.now. Tests pass one that moves only when they move it.
   */
  wallClock?: () => number;
  /** Delivery statuses over time; absent = off (every outbound message stays `sent`, S51). `{}` = DEFAULT_DELIVERY. */
  delivery?: SimDelivery;
  /** How the message list shows a template message (S54): `full` (default, every component one a line) or `body` (its body alone). */
  templateDisplay?: TemplateDisplay;
  /** The company the token belongs to (S37): its id in every /company/{companyId} path; default 1. */
  companyId?: number;
  /** More numbers of the company beside the seed's channels (S60): a pool's numbers, e.g. `{ id: 14, name: 'Sales 2', type: 'wba', status: 1 }`. */
  channels?: SimChannel[];
  /**
   * Holds the answer of a request with latency (S50): calls `answer` after `ms`, and returns what cancels it
   * (the simulator closing). Default: a timer. Tests pass their own to see each delay and answer when they choose.
   */
  delay?: SimDelay;
}

/** See `SimOptions.delay`. */
export type SimDelay = (answer: () => void, ms: number) => () => void;

export interface SimChannel {
  id: number;
  name: string;
  type: 'wba' | 'whatsapp' | 'ww';
  status: number;
}

export interface SimTemplateButton {
  type: 'QUICK_REPLY';
  text: string;
}

export type SimTemplateComponent =
  | { type: 'HEADER' | 'BODY' | 'FOOTER'; format?: 'TEXT'; text: string }
  | { type: 'BUTTONS'; buttons: SimTemplateButton[] };

export interface SimTemplate {
  id: number;
  name: string;
  language: string;
  category: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED';
  components: SimTemplateComponent[];
}

export interface SimTag {
  id: number;
  name: string;
  color: string;
  description: string;
}

export interface SimCustomField {
  id: number;
  company_id: number;
  name: string;
  key: string;
  type: string;
  required: boolean;
  options: string[];
  active: boolean;
}

export type CustomFieldValue = string | number | boolean;

export interface SimClient {
  id: number;
  name: string;
  lastname: string;
  email: string;
  phone: string;
  image: string;
  client_type: string;
  assigned_to: number;
  /** Sim-clock ms. */
  createdAt: number;
  updatedAt: number;
  tagIds: number[];
  customFields: Map<string, CustomFieldValue>;
  /** Sim-clock ms of the last inbound message (A23), or null. */
  lastInboundAt: number | null;
  /** Per number (channel id): the client's last inbound message to it, sim-clock ms. The 24-hour window is per number (S60). */
  lastInboundByChannel: Map<number, number>;
}

export interface SimConversation {
  id: number;
  clientId: number;
  channelId: number;
  status: ConversationStatus;
  topic: string | null;
  pipelineId: number | null;
  pipelineStageId: number | null;
  createdAt: number;
  updatedAt: number;
  lastMessageId: number | null;
  /** Ids of its messages, ascending. */
  messageIds: number[];
}

export interface SimMessage {
  id: number;
  conversationId: number;
  body: string;
  contentType: string;
  content: string;
  senderType: 'user' | 'client' | 'system';
  senderId: number | null;
  file_url: string | null;
  file_name: string | null;
  file_size: number;
  file_type: string;
  read: boolean;
  read_at: string | null;
  /** Outbound: `sent` when stored, then as its DeliveryPlan says once the clock passes each change (S51). */
  deliveryStatus: DeliveryStatus;
  /** A failed message's provider error, `(#131026) Message undeliverable.`; '' otherwise. */
  failureReason: string;
  /** Sim-clock ms. */
  createdAt: number;
  /** Sim-clock ms of the last change: createdAt, then each delivery-status change (S53). */
  updatedAt: number;
  reply_to_id: number | null;
  client_message_id: string | null;
  /** Template sends: the template's name and language. */
  template?: { name: string; language: string };
}

export interface RequestLogEntry {
  method: string;
  path: string;
  query?: Record<string, string>;
  /** Parsed JSON body, or undefined (none, unparsable, or never read). */
  body: unknown;
  /** HTTP status answered; 0 when the socket was dropped before processing. */
  status: number;
  /** The route pattern, e.g. 'POST /chat/conversations/{id}/messages', or 'unknown'. */
  endpoint: string;
  /** Sim-clock ms at arrival. */
  at: number;
  /** Wall-clock ms at arrival (Date.now() unless `wallClock` says otherwise). */
  wall: number;
  /** True when no answer was sent (dropRate). */
  dropped?: true;
  /** The latency added before answering, in ms, when any (latencyMs ± latencyJitterMs). */
  latencyMs?: number;
}

export interface SimCounters {
  /** API requests that reached the simulator (/__sim/ excluded). */
  total: number;
  byEndpoint: Record<string, number>;
  byStatus: Record<string, number>;
  rateLimited: number;
  dropped: number;
  /** Messages stored, by direction. */
  messagesOutbound: number;
  messagesInbound: number;
  webhookAttempts: number;
}

export interface WebhookDelivery {
  messageId: number;
  direction: 'inbound' | 'outbound';
  url: string;
  /** The exact raw body sent. */
  body: string;
  /** Date.now() when sent. */
  startedAt: number;
  /** HTTP status of the receiver's answer, when one came. */
  status?: number;
  /** Error text, when no answer came (refused, timeout). */
  error?: string;
  /** True while the attempt is in flight. */
  pending: boolean;
  durationMs?: number;
}

export interface InboundResult {
  client_id: number;
  conversation_id: number;
  message_id: number;
}

/** Direct access for tests and benches (same process as the simulator). */
export interface SimState {
  readonly requests: readonly RequestLogEntry[];
  readonly counters: Readonly<SimCounters>;
  /** Most API requests that arrived in any window of `windowMs` wall ms (default 1000); `acceptedOnly` leaves out 429s. */
  maxRequestsInWindow(windowMs?: number, options?: { acceptedOnly?: boolean }): number;
  /** API requests per wall-clock second (key: epoch second). */
  requestsPerSecond(): Map<number, number>;
  readonly clients: ReadonlyMap<number, SimClient>;
  readonly conversations: ReadonlyMap<number, SimConversation>;
  readonly messages: ReadonlyMap<number, SimMessage>;
  readonly templates: readonly SimTemplate[];
  readonly channels: readonly SimChannel[];
  readonly tags: ReadonlyMap<number, SimTag>;
  readonly customFields: ReadonlyMap<number, SimCustomField>;
  readonly webhookDeliveries: readonly WebhookDelivery[];
  /** A copy of the faults in force. */
  faults(): SimFaults;
  /** A client sends a message (opens the 24-hour window, emits the webhook as inbound); creates client/conversation if needed. */
  inbound(phoneOrClientId: string | number, text: string, channelId?: number): InboundResult;
  /** Moves the simulated clock forward and applies the delivery-status changes now due; returns the new now(). */
  advanceClock(ms: number): number;
  /** Simulated clock, epoch ms. */
  now(): number;
  setFaults(partial: SimFaults): void;
  /** Every send to these phones (wba/whatsapp) fails with `code` until cleared (S49). A bad phone or code is a RangeError. */
  forceProviderError(phones: string | readonly string[], code: ProviderCode): void;
  /** Clears the forced code of these phones, or of every phone. */
  clearProviderError(phones?: string | readonly string[]): void;
  /** These phones stopped marketing messages: template sends to them fail 131050 (S46). */
  stopMarketing(phones: string | readonly string[]): void;
  /** These phones (or every phone) take marketing messages again. */
  resumeMarketing(phones?: string | readonly string[]): void;
  /** After `afterSends` more successful wba/whatsapp sends, every one fails 131048 (S47); null lifts it. */
  setSpamLimit(afterSends: number | null, channelId?: number): void;
  /** A copy of the provider's state (forced codes, stopped phones, spam limit). */
  provider(): SimProviderState;
  setWebhook(config: WebhookConfig | undefined): void;
  /** start-whatsapp requests processed (authorised, parsed) that carried this phone, whatever their answer. */
  startWhatsappCount(phone: string): number;
  /** Messages stored for the client with this phone, by direction (default outbound). */
  messageCount(phone: string, direction?: 'inbound' | 'outbound'): number;
  clientByPhone(phone: string): SimClient | undefined;
  /** Messages of a conversation, ascending, with the delivery statuses due by now. */
  messagesOf(conversationId: number): SimMessage[];
  /**
   * Delivery statuses over time: `settings` over those in force (the defaults when off), and on; null turns it
   * off for messages sent from now on. A bad field is a RangeError naming it.
   */
  setDelivery(settings: SimDelivery | null): void;
  /** A copy of the delivery settings in force, or null when off. */
  delivery(): ActiveDelivery | null;
  /** The fate decided for an outbound message when it was sent (undefined while delivery was off, or for inbound). */
  deliveryPlan(messageId: number): DeliveryPlan | undefined;
  /**
   * Applies the delivery-status changes due by the simulated clock to the stored records. Every API request and
   * control, advanceClock, messagesOf and messageCount do it; call it before reading `messages` or
   * `conversations` directly after wall time alone has passed.
   */
  settle(): void;
  /** Resolves when no webhook delivery is in flight. */
  webhookIdle(): Promise<void>;
}

export interface RunningSimulator {
  /** http://127.0.0.1:PORT */
  url: string;
  token: string;
  close(): Promise<void>;
  state: SimState;
}
