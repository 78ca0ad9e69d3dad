import { CONVERSATIONS_MAX_PER_PAGE, MESSAGES_MAX_LIMIT } from '../assumptions.js';
import type { Conversation, Id, Message } from '../types.js';
import type { ConversationsApi } from './conversations.js';

export interface PagingOptions {
  /** Page size; default the maximum (200). */
  pageSize?: number;
  signal?: AbortSignal;
}

export interface PagingApi {
  /**
   * Every conversation with `updated_at >= updatedAt` (A12), oldest change first, each version
   * once. Pages by moving the `updated_at` cursor to the newest change seen (falling back to the
   * next page only while a whole page shares one instant), so a conversation that changes while
   * paging cannot shift another out of sight.
   */
  allConversationsSince(updatedAt: string, options?: PagingOptions): AsyncIterable<Conversation>;
  /** Every message with id greater than `afterId`, ascending, following `newest_id` while `has_more`. */
  allMessagesAfter(conversationId: Id, afterId: number, options?: PagingOptions): AsyncIterable<Message>;
}

export function pagingApi(api: ConversationsApi): PagingApi {
  return {
    async *allConversationsSince(updatedAt, options = {}) {
      const perPage = options.pageSize ?? CONVERSATIONS_MAX_PER_PAGE;
      const seen = new Set<string>();
      let cursor = updatedAt;
      let page = 1;
      for (;;) {
        const { data, pagination } = await api.listConversations(
          { updated_at: cursor, page, per_page: perPage },
          { signal: options.signal },
        );
        let newest = cursor;
        for (const conversation of data) {
          const version = `${conversation.id}@${conversation.updated_at}`;
          if (Date.parse(conversation.updated_at) > Date.parse(newest)) newest = conversation.updated_at;
          if (seen.has(version)) continue;
          seen.add(version);
          yield conversation;
        }
        if (data.length === 0 || pagination.current_page >= pagination.last_page) return;
        if (newest !== cursor) {
          cursor = newest;
          page = 1;
        } else {
          page += 1;
        }
      }
    },

    async *allMessagesAfter(conversationId, afterId, options = {}) {
      const limit = options.pageSize ?? MESSAGES_MAX_LIMIT;
      let cursor = afterId;
      for (;;) {
        const { data, pagination } = await api.listMessages(
          conversationId,
          { after_id: cursor, limit },
          { signal: options.signal },
        );
        let newest = cursor;
        for (const message of data) {
          if (message.id <= cursor) continue;
          newest = Math.max(newest, message.id);
          yield message;
        }
        newest = Math.max(newest, pagination.newest_id ?? 0);
        if (!pagination.has_more || data.length === 0 || newest <= cursor) return;
        cursor = newest;
      }
    },
  };
}
