import { describe, expect, it } from 'vitest';
import { pagingApi } from '../../src/api/endpoints/paging.js';
import type { ConversationsApi } from '../../src/api/endpoints/conversations.js';
import type { Conversation, ConversationsQuery, Message, MessagesQuery } from '../../src/api/index.js';

const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString();
const conv = (id: number, second: number) => ({ id, updated_at: at(second) }) as Conversation;

/** A fake listing over a mutable store, applying A12 (>=, oldest change first, page/per_page). */
function conversationsOver(store: Conversation[], onRequest: (q: ConversationsQuery) => void = () => {}) {
  const requests: ConversationsQuery[] = [];
  const api = {
    async listConversations(q: ConversationsQuery = {}) {
      requests.push(q);
      onRequest(q);
      const since = Date.parse(q.updated_at ?? at(0));
      const all = store
        .filter((c) => Date.parse(c.updated_at) >= since)
        .sort((a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at) || a.id - b.id);
      const perPage = q.per_page ?? 50;
      const page = q.page ?? 1;
      return {
        data: all.slice((page - 1) * perPage, page * perPage),
        pagination: { current_page: page, per_page: perPage, total: all.length, last_page: Math.max(1, Math.ceil(all.length / perPage)) },
      };
    },
  } as unknown as ConversationsApi;
  return { paging: pagingApi(api), requests };
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('allConversationsSince', () => {
  it('yields every conversation changed since, oldest first, each once', async () => {
    const store = Array.from({ length: 7 }, (_, i) => conv(i + 1, i + 1));
    const { paging } = conversationsOver(store);
    const got = await collect(paging.allConversationsSince(at(2), { pageSize: 2 }));
    expect(got.map((c) => c.id)).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('pages through a run of changes sharing one instant', async () => {
    const store = [conv(1, 1), conv(2, 5), conv(3, 5), conv(4, 5), conv(5, 5), conv(6, 5), conv(7, 9)];
    const { paging } = conversationsOver(store);
    const got = await collect(paging.allConversationsSince(at(0), { pageSize: 2 }));
    expect(got.map((c) => c.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('misses nothing when a conversation changes while paging', async () => {
    const store = Array.from({ length: 6 }, (_, i) => conv(i + 1, i + 1));
    let calls = 0;
    const { paging } = conversationsOver(store, () => {
      // Between the first and second request, conversation 1 gets a new message: it moves to the end.
      calls += 1;
      if (calls === 2) store[0] = conv(1, 30);
    });
    const got = await collect(paging.allConversationsSince(at(0), { pageSize: 2 }));
    expect(got.map((c) => `${c.id}@${Date.parse(c.updated_at) / 1000 % 60}`)).toEqual([
      '1@1', '2@2', '3@3', '4@4', '5@5', '6@6', '1@30',
    ]);
  });

  it('stops on an empty listing', async () => {
    const { paging, requests } = conversationsOver([]);
    expect(await collect(paging.allConversationsSince(at(0)))).toEqual([]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ page: 1, per_page: 200 });
  });
});

describe('allMessagesAfter', () => {
  const msgs = Array.from({ length: 9 }, (_, i) => ({ id: 100 + i }) as Message);
  function messagesApi() {
    const requests: MessagesQuery[] = [];
    const api = {
      async listMessages(_id: unknown, q: MessagesQuery = {}) {
        requests.push(q);
        const after = msgs.filter((m) => m.id > (q.after_id ?? 0));
        const data = after.slice(0, q.limit ?? 50);
        return {
          data,
          pagination: { has_more: after.length > data.length, oldest_id: data[0]?.id ?? null, newest_id: data.at(-1)?.id ?? q.after_id ?? 0, limit: q.limit ?? 50 },
        };
      },
    } as unknown as ConversationsApi;
    return { paging: pagingApi(api), requests };
  }

  it('follows newest_id while has_more', async () => {
    const { paging, requests } = messagesApi();
    const got = await collect(paging.allMessagesAfter(5, 101, { pageSize: 3 }));
    expect(got.map((m) => m.id)).toEqual([102, 103, 104, 105, 106, 107, 108]);
    expect(requests.map((q) => q.after_id)).toEqual([101, 104, 107]);
  });

  it('asks once when nothing is newer', async () => {
    const { paging, requests } = messagesApi();
    expect(await collect(paging.allMessagesAfter(5, 108))).toEqual([]);
    expect(requests).toEqual([{ after_id: 108, limit: 200 }]);
  });
});
