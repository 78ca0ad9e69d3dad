import { createFileStore } from '../../src/checkpoint/backends.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Conversation, Message } from '../../src/api/index.js';
import { openEventsLog } from '../../src/checkpoint/file/index.js';
import { sync, type SyncApi } from '../../src/webhook/index.js';
import { storedEvents, storedWindow } from './helpers/events.js';

let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'outreach-sync-'));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

/** A platform in memory: just what the paging helpers read, and a log of the cursors asked. */
function fakePlatform() {
  const conversations: Conversation[] = [];
  const messages = new Map<number, Message[]>();
  const phones = new Map<number, string>();
  const asked = { since: [] as string[], afterIds: [] as [number, number][], clients: [] as string[] };
  let nextId = 1;
  let clock = Date.parse('2025-03-01T10:00:00Z');

  function add(conversationId: number, clientId: number, senderType: 'client' | 'user', content: string): Message {
    clock += 60_000;
    let conversation = conversations.find((c) => c.id === conversationId);
    if (!conversation) {
      conversation = { id: conversationId, client_id: clientId, updated_at: '' } as Conversation;
      conversations.push(conversation);
    }
    conversation.updated_at = new Date(clock).toISOString();
    const message = { id: nextId++, senderType, content, createdAt: new Date(clock).toISOString() } as Message;
    messages.set(conversationId, [...(messages.get(conversationId) ?? []), message]);
    return message;
  }

  const api: SyncApi = {
    async *allConversationsSince(since) {
      asked.since.push(since);
      const changed = conversations
        .filter((c) => Date.parse(c.updated_at) >= Date.parse(since))
        .sort((a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at));
      yield* changed.map((c) => ({ ...c }));
    },
    async *allMessagesAfter(conversationId, afterId) {
      asked.afterIds.push([Number(conversationId), afterId]);
      yield* (messages.get(Number(conversationId)) ?? []).filter((m) => m.id > afterId);
    },
    async getClient(id) {
      asked.clients.push(String(id));
      return { phone: phones.get(Number(id)) ?? '' };
    },
  };
  return { api, add, phones, asked, conversations };
}

describe('sync', () => {
  it('records the number a reply came to from the conversation the listing names it on, with the event and the phone\'s window', async () => {
    const p = fakePlatform();
    p.phones.set(71, '+5511999990071');
    p.add(601, 71, 'client', 'oi');
    (p.conversations[0] as { channel_id: number }).channel_id = 11;
    p.add(602, 72, 'client', 'hello');
    p.phones.set(72, '+5511999990072');
    const store = createFileStore(stateDir);
    await sync({ api: p.api, store });
    const events = await storedEvents(path.join(stateDir, 'events.jsonl'));
    expect(events.find((e) => e.conversation_id === '601')).toMatchObject({ channel_id: 11 });
    expect(events.find((e) => e.conversation_id === '602')?.channel_id).toBeUndefined();
    const windows = await store.windows();
    expect(windows.lastInboundChannel('+5511999990071')).toBe(11);
    expect(windows.lastInboundChannel('+5511999990072')).toBeUndefined();
    expect(windows.lastInboundAt('+5511999990072')).toBeDefined();
  });

  it('reads several conversations at once but never moves its mark past one that failed', async () => {
    const p = fakePlatform();
    for (let i = 0; i < 12; i++) p.add(500 + i, 70 + i, 'user', `hello ${i}`);
    const failing = 505;
    const read = p.api.allMessagesAfter.bind(p.api);
    p.api.allMessagesAfter = async function* (conversationId, afterId, options) {
      if (Number(conversationId) === failing) throw new Error('connection reset');
      yield* read(conversationId, afterId, options);
    };

    await expect(sync({ api: p.api, store: createFileStore(stateDir) })).rejects.toThrow('connection reset');
    const book = JSON.parse(await readFile(path.join(stateDir, 'sync.json'), 'utf8'));
    const failedAt = Date.parse(p.conversations.find((c) => c.id === failing)!.updated_at);
    expect(Date.parse(book.updated_at)).toBeLessThan(failedAt);

    p.api.allMessagesAfter = read;
    const again = await sync({ api: p.api, store: createFileStore(stateDir) });
    const events = await storedEvents(path.join(stateDir, 'events.jsonl'));
    expect(events.map((e) => Number(e.message_id)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(again.recorded).toBeGreaterThanOrEqual(1);
  });

  it('records every message of the changed conversations with direction from senderType, links phones and moves windows', async () => {
    const p = fakePlatform();
    p.phones.set(70, '+5511000000070');
    p.add(500, 70, 'user', 'Olá!');
    const reply = p.add(500, 70, 'client', 'Oi, quero saber mais');
    p.add(600, 80, 'user', 'Olá!');

    const result = await sync({ api: p.api, store: createFileStore(stateDir) });
    expect(result).toMatchObject({ conversations: 2, messagesSeen: 3, recorded: 3, inboundRecorded: 1 });
    expect(p.asked.since).toEqual(['1970-01-01T00:00:00.000Z']);
    expect(p.asked.clients).toEqual(['70']);

    const events = await storedEvents(path.join(stateDir, 'events.jsonl'));
    expect(events.map((e) => [e.message_id, e.direction, e.sender_type, e.source]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      ['1', 'outbound', 'user', 'sync'],
      ['2', 'inbound', 'client', 'sync'],
      ['3', 'outbound', 'user', 'sync'],
    ]);
    expect(events.find((e) => e.message_id === '2')).toMatchObject({ conversation_id: '500', client_id: '70', phone: '+5511000000070', content: 'Oi, quero saber mais' });

    const window = await storedWindow(path.join(stateDir, 'window.json'));
    expect(window?.clients['70']).toBe(reply.createdAt);
    expect(window?.phones['+5511000000070']).toBe(reply.createdAt);
    expect(window?.clients['80']).toBeUndefined();

    const book = JSON.parse(await readFile(path.join(stateDir, 'sync.json'), 'utf8'));
    expect(book).toMatchObject({ v: 1, updated_at: result.until, conversations: { '500': 2, '600': 3 } });
  });

  it('a second sync starts from the mark and each conversation after its newest recorded message, recording nothing twice', async () => {
    const p = fakePlatform();
    p.add(500, 70, 'user', 'Olá!');
    p.add(600, 80, 'client', 'oi');
    const first = await sync({ api: p.api, store: createFileStore(stateDir) });

    const again = await sync({ api: p.api, store: createFileStore(stateDir) });
    expect(again).toMatchObject({ since: first.until, recorded: 0 });
    expect(p.asked.afterIds.slice(-1)).toEqual([[600, 2]]);

    p.add(500, 70, 'client', 'late reply');
    const third = await sync({ api: p.api, store: createFileStore(stateDir) });
    // 600 sits on the mark (the listing is `>=`, A12) and is read again, after its newest message: nothing.
    expect(third).toMatchObject({ conversations: 2, messagesSeen: 1, recorded: 1, inboundRecorded: 1 });
    expect(p.asked.afterIds.slice(-2)).toEqual([[600, 2], [500, 1]]);
    expect(await storedEvents(path.join(stateDir, 'events.jsonl'))).toHaveLength(3);
  });

  it('does not record again what the webhook already recorded', async () => {
    const p = fakePlatform();
    const m = p.add(500, 70, 'client', 'oi');
    const log = await openEventsLog(path.join(stateDir, 'events.jsonl'));
    await log.record({
      message_id: String(m.id),
      conversation_id: '500',
      client_id: '70',
      direction: 'inbound',
      sender_type: 'client',
      created_at: m.createdAt,
      received_at: m.createdAt,
      source: 'webhook',
    });
    await log.close();
    const result = await sync({ api: p.api, store: createFileStore(stateDir) });
    expect(result).toMatchObject({ messagesSeen: 1, recorded: 0 });
    expect(await storedEvents(path.join(stateDir, 'events.jsonl'))).toMatchObject([{ source: 'webhook' }]);
  });

  it('--since overrides the remembered mark; an unreadable --since is refused before any request', async () => {
    const p = fakePlatform();
    p.add(500, 70, 'user', 'Olá!');
    await sync({ api: p.api, store: createFileStore(stateDir) });
    await sync({ api: p.api, store: createFileStore(stateDir), since: '2025-01-01T00:00:00Z' });
    expect(p.asked.since[1]).toBe('2025-01-01T00:00:00Z');
    await expect(sync({ api: p.api, store: createFileStore(stateDir), since: 'last tuesday' })).rejects.toThrow(/--since "last tuesday" is not a date-time/);
    expect(p.asked.since).toHaveLength(2);
  });
});
