/**
 * The few API client methods the webhook folder calls. The real client (`createApiClient`) has
 * them all; tests may pass a stub with just these.
 */
import type { ApiClient, Client, Id, RequestOptions } from '../api/index.js';

/** `GET /client/{id}`: the phone of a client id. */
export interface ClientReader {
  getClient(id: Id, options?: RequestOptions): Promise<Pick<Client, 'phone'>>;
}

/** The paging helpers over `GET /chat/conversations?updated_at=` (A12) and `…/{id}/messages?after_id=` (A28). */
export type ConversationReader = Pick<ApiClient, 'allConversationsSince' | 'allMessagesAfter'>;

/** What `sync` needs: the listings, and the client read for phones. */
export type SyncApi = ConversationReader & ClientReader;
