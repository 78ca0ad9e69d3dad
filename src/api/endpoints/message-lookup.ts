import { MESSAGE_LOOKUP_LIMIT } from '../assumptions.js';
import type { Id, Message, RequestOptions } from '../types.js';
import type { ConversationsApi } from './conversations.js';

/**
 * C7: one message of a conversation by its id, in the smallest request the listing allows:
 * `GET /chat/conversations/{id}/messages?after_id={messageId - 1}&limit=1`. Messages come in
 * ascending order after the cursor, so the page's one message is this one when it is in that
 * conversation; undefined when it is not (another message, or none).
 */
export async function findMessage(
  api: Pick<ConversationsApi, 'listMessages'>,
  conversationId: Id,
  messageId: number,
  options: RequestOptions = {},
): Promise<Message | undefined> {
  const { data } = await api.listMessages(conversationId, { after_id: messageId - 1, limit: MESSAGE_LOOKUP_LIMIT }, options);
  const first = data[0];
  return first !== undefined && first.id === messageId ? first : undefined;
}
