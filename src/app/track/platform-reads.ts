import { findMessage, pagingApi, RateLimitedError, type ApiClient, type Conversation, type Id, type Message, type Template } from '../../api/index.js';
import { rateLimitWaitMs, type RateLimiter } from '../../run/index.js';

/** The reads `track` and `reconcile` make, each one through the job's rate limiter first (a 429 slows it and the read is asked again), and counted. */
export interface PlatformReads {
  /** One message by id (C7), undefined when it is not in that conversation. */
  message(conversationId: Id, messageId: number): Promise<Message | undefined>;
  /** Every conversation changed at or after `since` (ISO), oldest change first (A12). */
  conversationsSince(since: string): AsyncIterable<Conversation>;
  /** The company's messages of a conversation created at or after `since` (epoch ms), oldest first: pages back from the newest. */
  messagesSince(conversationId: Id, since: number): Promise<Message[]>;
  /** The phone of a client, asked once per client (cached). */
  phoneOfClient(clientId: Id): Promise<string>;
  approvedTemplates(): Promise<Template[]>;
  /** Requests made so far. */
  readonly requests: number;
}

/** Messages asked per page when reading a conversation back. */
const PAGE = 50;
/** A read answered 429 is asked again after the wait, this many times at most (reads change nothing: safe to repeat). */
const READ_ATTEMPTS = 6;

export function platformReads(api: ApiClient, limiter: RateLimiter, options: { signal?: AbortSignal; knownClients?: ReadonlyMap<string, string> } = {}): PlatformReads {
  const { signal } = options;
  let requests = 0;
  /** One read through the limiter; a 429 slows the limiter for every read and the read is asked again. */
  const read = async <T,>(call: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      await limiter.acquire(signal);
      await limiter.pace();
      requests += 1;
      try {
        return await call();
      } catch (err) {
        if (!(err instanceof RateLimitedError) || attempt >= READ_ATTEMPTS) throw err;
        limiter.backOff(rateLimitWaitMs(err.retryAfterMs, attempt, Math.random()));
      }
    }
  };
  const gated = {
    ...api,
    listConversations: (...args: Parameters<ApiClient['listConversations']>) => read(() => api.listConversations(...args)),
    listMessages: (...args: Parameters<ApiClient['listMessages']>) => read(() => api.listMessages(...args)),
  };
  const paging = pagingApi(gated);
  const phones = new Map<string, Promise<string>>(Array.from(options.knownClients ?? [], ([id, phone]) => [id, Promise.resolve(phone)]));

  return {
    message: (conversationId, messageId) => findMessage(gated, conversationId, messageId, signal ? { signal } : {}),
    conversationsSince: (since) => paging.allConversationsSince(since, signal ? { signal } : {}),
    async messagesSince(conversationId, since) {
      const out: Message[] = [];
      let before: number | undefined;
      for (;;) {
        const { data, pagination } = await gated.listMessages(conversationId, { limit: PAGE, ...(before !== undefined && { before_id: before }) }, signal ? { signal } : {});
        for (const m of data) if (Date.parse(m.createdAt) >= since) out.push(m);
        const oldest = data[0];
        if (!pagination.has_more || oldest === undefined || Date.parse(oldest.createdAt) < since || pagination.oldest_id === null) break;
        before = pagination.oldest_id;
      }
      return out.sort((a, b) => a.id - b.id);
    },
    phoneOfClient(clientId) {
      const key = String(clientId);
      let phone = phones.get(key);
      if (!phone) {
        phone = read(() => api.getClient(clientId, signal ? { signal } : {})).then((client) => client.phone);
        phones.set(key, phone);
        phone.catch(() => phones.delete(key));
      }
      return phone;
    },
    approvedTemplates: () => read(() => api.listTemplates({ status: 'APPROVED' }, signal ? { signal } : {})),
    get requests() {
      return requests;
    },
  };
}
