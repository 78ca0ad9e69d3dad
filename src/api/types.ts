/**
 * Wire types of the integration API (docs: shared/api/integration-api.md; "not shown" parts per
 * docs/assumptions.md). Field names are the platform's, unchanged.
 */

import type {
  CLIENTS_QUERY_KEYS,
  CONVERSATION_STATUSES,
  DELIVERY_STATUSES,
  WBA_SEND_TEMPLATE_FIELDS,
} from './assumptions.js';

/** Every method takes this last. */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** A path id: an integer, or a string of digits as start-whatsapp returns them (A4, A18). */
export type Id = number | string;

// ── Resources ────────────────────────────────────────────────────────────────

/** A25: `sent` for API sends; also `delivered`, `read`, `failed`. */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type SenderType = 'user' | 'client' | 'system';

export interface MessageCall {
  direction: string;
  outcome: string;
  duration: number;
}

export interface Message {
  id: number;
  body: string;
  contentType: string;
  content: string;
  senderType: SenderType;
  senderId: number | null;
  file_url: string | null;
  file_name: string | null;
  file_size: number;
  file_type: string;
  read: boolean;
  read_at: string | null;
  deliveryStatus: DeliveryStatus | (string & {});
  failureReason: string;
  createdAt: string;
  updatedAt: string;
  reply_to_id: number | null;
  reply_to_message_id: number;
  edited_at: string | null;
  client_message_id: string | null;
  call: MessageCall | null;
  /** Shape of the items: not shown. */
  reactions: unknown[];
}

export interface Client {
  id: number;
  name: string;
  lastname: string;
  email: string;
  phone: string;
  image: string;
  /** `pf` is one value; others not shown. */
  client_type: string;
  assigned_to: number;
  created_at: string;
  updated_at: string;
}

/** The single-client read (and A14's update answer): tags, addresses and aliases, shapes not shown. */
export interface ClientDetail extends Client {
  tags?: unknown[];
  addresses?: unknown[];
  contact_aliases?: unknown[];
}

/** A16: the tag record. */
export interface Tag {
  id: number;
  name: string;
  color: string;
  description: string;
}

export interface CustomField {
  id: number;
  company_id: number;
  name: string;
  key: string;
  /** `text` is one value; others not shown. */
  type: string;
  required: boolean;
  options: string[];
  active: boolean;
}

/** `APPROVED` marks templates ready to send. */
export type TemplateStatus = 'APPROVED' | (string & {});

export interface Template {
  id: number;
  name: string;
  language: string;
  category: string;
  status: TemplateStatus;
  /** Array of objects, shapes not shown; `{{n}}` placeholders sit in their strings. */
  components: Record<string, unknown>[];
}

/** `wba` and `whatsapp`: the provider's cloud API; `ww`: the web-session channel. */
export type ChannelType = 'wba' | 'whatsapp' | 'ww';

export interface Channel {
  id: number;
  name: string;
  type: ChannelType;
  /** A27: 1 active, 0 inactive. */
  status: number;
}

/** A9. */
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** A8: the conversation record. */
export interface Conversation {
  id: number;
  client_id: number;
  channel_id: number;
  status: ConversationStatus | (string & {});
  topic: string | null;
  pipeline_id: number | null;
  pipeline_stage_id: number | null;
  created_at: string;
  updated_at: string;
  last_message_id: number | null;
}

/** A11: every status of A9 present (others tolerated). */
export type ConversationCounts = Record<ConversationStatus, number> & { [status: string]: number };

// ── Pagination ───────────────────────────────────────────────────────────────

export interface MessagesPagination {
  has_more: boolean;
  oldest_id: number | null;
  newest_id: number;
  limit: number;
}

/** Clients (documented) and conversations (A12). */
export interface PagePagination {
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

export interface Page<T, P> {
  data: T[];
  pagination: P;
}

export type MessagesPage = Page<Message, MessagesPagination>;
export type ConversationsPage = Page<Conversation, PagePagination>;
export type ClientsPage = Page<Client, PagePagination>;

// ── Queries ──────────────────────────────────────────────────────────────────

export interface MessagesQuery {
  before_id?: number;
  after_id?: number;
  /** Default 50, maximum 200. */
  limit?: number;
}

/** A12. */
export interface ConversationsQuery {
  /** ISO 8601; conversations with `updated_at >=` this, oldest change first. */
  updated_at?: string;
  page?: number;
  per_page?: number;
}

/** A13: `page`, `per_page` and `phone` (an exact E.164 match). */
export type ClientsQuery = { [K in (typeof CLIENTS_QUERY_KEYS)[number]]?: K extends 'phone' ? string : number };

export interface TemplatesQuery {
  /** `APPROVED` lists only templates ready to send; omit for every status. */
  status?: string;
}

// ── Bodies ───────────────────────────────────────────────────────────────────

/** Template variables: position string ("1", "2", …) to value. */
export type TemplateVariables = Record<string, string>;

export interface StartWhatsappCommon {
  channel_id: number;
  /** Leading `+` and country code. */
  phone: string;
  name?: string;
  lastname?: string;
  topic?: string;
  pipeline_id?: number;
  pipeline_stage_id?: number;
}

/** Only on `wba`/`whatsapp` (422 on `ww`). */
export interface StartWhatsappTemplateBody extends StartWhatsappCommon {
  send_type: 'template';
  template_name: string;
  /** `xx_XX`. Optional in the document; required here (C6): the runner always has it. */
  language: string;
  variables?: TemplateVariables;
}

/** On `wba`/`whatsapp` only within the 24-hour window; media fields only on `ww`. */
export interface StartWhatsappTextBody extends StartWhatsappCommon {
  send_type: 'text';
  text: string;
  content_type?: string;
  file_url?: string;
  file_name?: string;
}

export type StartWhatsappBody = StartWhatsappTemplateBody | StartWhatsappTextBody;

export interface StartWhatsappResult {
  /** A4: strings of digits. */
  conversationId: string;
  clientId: string;
  messageId: number;
}

interface SendMessageCommon {
  /** A6: defaults to `text`; `image`, `video`, `audio`, `document` or a full MIME type. */
  content_type?: string;
  file_name?: string;
  subject?: string;
  reply_to_id?: number;
  /** The caller's own id of the message. */
  client_message_id?: string;
}

/** A6: `content` or `file_url` is required. */
export type SendMessageBody = SendMessageCommon &
  ({ content: string; file_url?: string } | { file_url: string; content?: string });

/** A5: start-whatsapp's template fields, all required (C6). */
export type SendTemplateBody = Required<Pick<StartWhatsappTemplateBody, (typeof WBA_SEND_TEMPLATE_FIELDS)[number]>>;

/** At least one of email or phone. */
export type CreateClientBody = { name?: string; lastname?: string } & (
  | { email: string; phone?: string }
  | { phone: string; email?: string }
);

/** A14: fields given replace the stored ones; `tags` replaces the tag list. */
export interface UpdateClientBody {
  name?: string;
  lastname?: string;
  email?: string;
  phone?: string;
  image?: string;
  tags?: string[];
}

export interface CreateTagBody {
  name: string;
  color?: string;
  description?: string;
}

export interface CreateCustomFieldBody {
  name: string;
  key: string;
  required?: boolean;
  options?: string[];
  active?: boolean;
}

/** `key` is not part of the update body. */
export interface UpdateCustomFieldBody {
  name?: string;
  required?: boolean;
  options?: string[];
  active?: boolean;
}

export type CustomFieldValue = string | number | boolean | null;
export type CustomFieldValues = Record<string, CustomFieldValue>;
