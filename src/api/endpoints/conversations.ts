import { TAKE_OVER_HAS_BODY, WBA_SEND_TEMPLATE_FIELDS } from '../assumptions.js';
import type { Transport } from '../client.js';
import { type Answer, dataObject, page } from '../envelope.js';
import { SendFailedError, isRecord, readSendFailure, unusableAnswer } from '../errors.js';
import { pathId } from '../paths.js';
import type {
  Conversation,
  ConversationCounts,
  ConversationStatus,
  ConversationsPage,
  ConversationsQuery,
  Id,
  Message,
  MessagesPage,
  MessagesPagination,
  MessagesQuery,
  PagePagination,
  RequestOptions,
  SendMessageBody,
  SendTemplateBody,
  StartWhatsappBody,
  StartWhatsappResult,
} from '../types.js';

export interface ConversationsApi {
  /** Cursor pages, ascending; `after_id` prevails over `before_id`. */
  listMessages(conversationId: Id, query?: MessagesQuery, options?: RequestOptions): Promise<MessagesPage>;
  /**
   * Finds or creates the client, opens or reuses a conversation, sends the first message.
   * A refused send throws SendFailedError carrying the ids when the platform gave them (A3).
   */
  startWhatsapp(body: StartWhatsappBody, options?: RequestOptions): Promise<StartWhatsappResult>;
  sendMessage(conversationId: Id, body: SendMessageBody, options?: RequestOptions): Promise<Message>;
  /** POST /chat/conversations/{id}/wba-send-template (A5): only on `wba`/`whatsapp`. */
  sendTemplate(conversationId: Id, body: SendTemplateBody, options?: RequestOptions): Promise<Message>;
  /** A9: answers the conversation. */
  setStage(conversationId: Id, pipelineStageId: number, options?: RequestOptions): Promise<Conversation>;
  /** A9: `automated`, `open`, `pending` or `closed`; answers the conversation. */
  setStatus(conversationId: Id, status: ConversationStatus | (string & {}), options?: RequestOptions): Promise<Conversation>;
  /** A11. */
  conversationCounts(options?: RequestOptions): Promise<ConversationCounts>;
  /** A9: no body; `automated` becomes `open`. */
  takeOver(conversationId: Id, options?: RequestOptions): Promise<Conversation>;
  /** A12: `updated_at >=`, oldest change first, page/per_page. */
  listConversations(query?: ConversationsQuery, options?: RequestOptions): Promise<ConversationsPage>;
}

const MESSAGES_PAGINATION = ['has_more', 'oldest_id', 'newest_id', 'limit'] as const;
const PAGE_PAGINATION = ['current_page', 'per_page', 'total', 'last_page'] as const;

export function conversationsApi(t: Transport): ConversationsApi {
  const conv = (id: Id) => `/chat/conversations/${pathId('conversationId', id)}`;
  return {
    async listMessages(conversationId, query = {}, options = {}) {
      const a = await t.send({
        method: 'GET',
        path: `${conv(conversationId)}/messages`,
        query: { before_id: query.before_id, after_id: query.after_id, limit: query.limit },
        signal: options.signal,
      });
      return page<Message, MessagesPagination>(a, MESSAGES_PAGINATION);
    },

    async startWhatsapp(body, options = {}) {
      const path = '/chat/conversations/start-whatsapp';
      const a = await t.send({ method: 'POST', path, body, signal: options.signal });
      return startResult(a);
    },

    async sendMessage(conversationId, body, options = {}) {
      const a = await t.send({ method: 'POST', path: `${conv(conversationId)}/messages`, body, signal: options.signal });
      return dataObject<Message>(a);
    },

    async sendTemplate(conversationId, body, options = {}) {
      const a = await t.send({
        method: 'POST',
        path: `${conv(conversationId)}/wba-send-template`,
        body: Object.fromEntries(WBA_SEND_TEMPLATE_FIELDS.map((key) => [key, body[key]])),
        signal: options.signal,
      });
      return dataObject<Message>(a);
    },

    async setStage(conversationId, pipelineStageId, options = {}) {
      const a = await t.send({
        method: 'PUT',
        path: `${conv(conversationId)}/stage`,
        body: { pipeline_stage_id: pipelineStageId },
        signal: options.signal,
      });
      return dataObject<Conversation>(a);
    },

    async setStatus(conversationId, status, options = {}) {
      const a = await t.send({ method: 'PUT', path: `${conv(conversationId)}/status`, body: { status }, signal: options.signal });
      return dataObject<Conversation>(a);
    },

    async conversationCounts(options = {}) {
      const a = await t.send({ method: 'GET', path: '/chat/conversations/counts', signal: options.signal });
      return dataObject<ConversationCounts>(a);
    },

    async takeOver(conversationId, options = {}) {
      const a = await t.send({
        method: 'POST',
        path: `${conv(conversationId)}/take-over`,
        body: TAKE_OVER_HAS_BODY ? {} : undefined,
        signal: options.signal,
      });
      return dataObject<Conversation>(a);
    },

    async listConversations(query = {}, options = {}) {
      const a = await t.send({
        method: 'GET',
        path: '/chat/conversations',
        query: { updated_at: query.updated_at, page: query.page, per_page: query.per_page },
        signal: options.signal,
      });
      return page<Conversation, PagePagination>(a, PAGE_PAGINATION);
    },
  };
}

/**
 * C1. start-whatsapp's success (A4: ids as strings). A 2xx carrying a conversation id but no
 * `message_id` is the document's "shape that carries the ids when the send fails": it becomes a
 * SendFailedError with the 2xx status kept.
 */
function startResult(a: Answer): StartWhatsappResult {
  const data = isRecord(a.body.data) ? a.body.data : {};
  const messageId = toInteger(data.message_id);
  const ids = readSendFailure(a.body);
  if (ids.conversationId !== undefined && ids.clientId !== undefined && messageId !== undefined) {
    return { conversationId: ids.conversationId, clientId: ids.clientId, messageId };
  }
  if (messageId === undefined && ids.conversationId !== undefined) {
    const platformMessage = typeof a.body.message === 'string' ? a.body.message : '';
    throw new SendFailedError(
      `${a.method} ${a.path} answered ${a.status} without a message id: the send failed${platformMessage ? `: ${platformMessage}` : ''}`,
      { status: a.status, platformMessage, body: a.body, method: a.method, path: a.path },
      ids,
    );
  }
  throw unusableAnswer(a.status, a.body, a.method, a.path, 'without data.conversation_id, client_id and message_id');
}

function toInteger(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^[0-9]+$/.test(value)) return Number(value);
  return undefined;
}
