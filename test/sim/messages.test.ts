import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness, HOUR, type Harness } from './helpers.js';

afterEach(closeAll);

const PHONE = '+5511999990001';

/** A conversation holding `count` inbound messages with ids 1..count. */
async function conversationWith(count: number): Promise<{ h: Harness; id: number }> {
  const h = await harness();
  let id = 0;
  for (let i = 0; i < count; i++) id = h.state.inbound(PHONE, `m${i + 1}`).conversation_id;
  return { h, id };
}

const ids = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((m) => m.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('GET messages: cursor pagination', () => {
  it('returns the newest page, ascending, when neither cursor is sent', async () => {
    const { h, id } = await conversationWith(60);
    const res = await h.call('GET', `/chat/conversations/${id}/messages`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(range(11, 60));
    expect(res.body.pagination).toEqual({ has_more: true, oldest_id: 11, newest_id: 60, limit: 50 });
  });

  it('returns older messages below before_id, ascending, with has_more for older ones', async () => {
    const { h, id } = await conversationWith(20);
    const page = await h.call('GET', `/chat/conversations/${id}/messages?before_id=11&limit=5`);
    expect(ids(page)).toEqual([6, 7, 8, 9, 10]);
    expect(page.body.pagination).toEqual({ has_more: true, oldest_id: 6, newest_id: 10, limit: 5 });
    const last = await h.call('GET', `/chat/conversations/${id}/messages?before_id=3&limit=5`);
    expect(ids(last)).toEqual([1, 2]);
    expect(last.body.pagination.has_more).toBe(false);
  });

  it('returns newer messages above after_id with has_more for newer ones', async () => {
    const { h, id } = await conversationWith(20);
    const page = await h.call('GET', `/chat/conversations/${id}/messages?after_id=10&limit=5`);
    expect(ids(page)).toEqual([11, 12, 13, 14, 15]);
    expect(page.body.pagination).toEqual({ has_more: true, oldest_id: 11, newest_id: 15, limit: 5 });
    const tail = await h.call('GET', `/chat/conversations/${id}/messages?after_id=17`);
    expect(ids(tail)).toEqual([18, 19, 20]);
    expect(tail.body.pagination.has_more).toBe(false);
  });

  it('lets after_id prevail when both cursors are sent', async () => {
    const { h, id } = await conversationWith(30);
    const res = await h.call('GET', `/chat/conversations/${id}/messages?before_id=5&after_id=20&limit=3`);
    expect(ids(res)).toEqual([21, 22, 23]);
  });

  it('answers an empty page past the newest with oldest_id null and newest_id the after_id sent', async () => {
    const { h, id } = await conversationWith(5);
    const res = await h.call('GET', `/chat/conversations/${id}/messages?after_id=5`);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toEqual({ has_more: false, oldest_id: null, newest_id: 5, limit: 50 });
  });

  it('answers newest_id 0 on an empty conversation without cursor', async () => {
    const h = await harness();
    const started = await h.start({ send_type: 'text', text: 'refused' });
    const res = await h.call('GET', `/chat/conversations/${started.body.data.conversation_id}/messages`);
    expect(res.body.pagination).toEqual({ has_more: false, oldest_id: null, newest_id: 0, limit: 50 });
  });

  it('caps limit at 200', async () => {
    const { h, id } = await conversationWith(250);
    const res = await h.call('GET', `/chat/conversations/${id}/messages?limit=1000`);
    expect(res.body.data).toHaveLength(200);
    expect(res.body.pagination).toMatchObject({ limit: 200, oldest_id: 51, newest_id: 250, has_more: true });
  });

  it('refuses a limit below 1 or not an integer with 422', async () => {
    const { h, id } = await conversationWith(1);
    expect((await h.call('GET', `/chat/conversations/${id}/messages?limit=0`)).status).toBe(422);
    expect((await h.call('GET', `/chat/conversations/${id}/messages?limit=abc`)).status).toBe(422);
    expect((await h.call('GET', `/chat/conversations/${id}/messages?after_id=x`)).status).toBe(422);
  });

  it('answers 404 for an unknown conversation', async () => {
    const h = await harness();
    const res = await h.call('GET', '/chat/conversations/999/messages');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });

  it('gives message ids ascending across conversations', async () => {
    const h = await harness();
    const a = h.state.inbound('+5511999990001', 'a1').conversation_id;
    const b = h.state.inbound('+5511999990002', 'b1').conversation_id;
    h.state.inbound('+5511999990001', 'a2');
    h.state.inbound('+5511999990002', 'b2');
    expect(ids(await h.call('GET', `/chat/conversations/${a}/messages`))).toEqual([1, 3]);
    expect(ids(await h.call('GET', `/chat/conversations/${b}/messages`))).toEqual([2, 4]);
  });

  it('serves every documented message field', async () => {
    const { h, id } = await conversationWith(1);
    const [message] = (await h.call('GET', `/chat/conversations/${id}/messages`)).body.data;
    expect(Object.keys(message).sort()).toEqual(
      [
        'id', 'body', 'contentType', 'content', 'senderType', 'senderId', 'file_url', 'file_name', 'file_size',
        'file_type', 'read', 'read_at', 'deliveryStatus', 'failureReason', 'createdAt', 'updatedAt', 'reply_to_id',
        'reply_to_message_id', 'edited_at', 'client_message_id', 'call', 'reactions',
      ].sort(),
    );
    expect(message).toMatchObject({ senderType: 'client', content: 'm1', contentType: 'text' });
  });
});

describe('POST messages', () => {
  async function refusedStart(h: Harness, channel_id = 10): Promise<string> {
    const res = await h.start({ channel_id, send_type: 'text', text: 'first' });
    expect(res.status).toBe(502);
    return res.body.data.conversation_id;
  }

  it('accepts media on a wba conversation outside the window', async () => {
    const h = await harness();
    const id = await refusedStart(h);
    const res = await h.call('POST', `/chat/conversations/${id}/messages`, {
      content: 'our catalogue',
      content_type: 'image',
      file_url: 'https://files.example/c.jpg',
      file_name: 'c.jpg',
      client_message_id: 'job1:+5511999990001:media',
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      contentType: 'image',
      file_url: 'https://files.example/c.jpg',
      file_name: 'c.jpg',
      senderType: 'user',
      deliveryStatus: 'sent',
      client_message_id: 'job1:+5511999990001:media',
    });
  });

  it('refuses free text on a wba conversation outside the window with 502 and the failure envelope', async () => {
    const h = await harness();
    const id = await refusedStart(h);
    const res = await h.call('POST', `/chat/conversations/${id}/messages`, { content: 'hello' });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ success: false, message: expect.any(String) });
    expect(h.state.messages.size).toBe(0);
  });

  it('sends free text after the client writes', async () => {
    const h = await harness();
    const id = await refusedStart(h, 11);
    h.state.inbound(PHONE, 'hi');
    const res = await h.call('POST', `/chat/conversations/${id}/messages`, { content: 'hello', content_type: 'text' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ content: 'hello', contentType: 'text' });
  });

  it('sends free text on ww without a window', async () => {
    const h = await harness();
    const start = await h.start({ channel_id: 12, send_type: 'text', text: 'first' });
    const res = await h.call('POST', `/chat/conversations/${start.body.data.conversation_id}/messages`, { content: 'second' });
    expect(res.status).toBe(200);
  });

  it.each([
    ['neither content nor file_url', {}],
    ['file_url without a media content_type', { file_url: 'https://x/a.png' }],
    ['an unknown content_type', { content: 'x', content_type: 'sticker', file_url: 'https://x/a' }],
    ['a media content_type without file_url', { content: 'x', content_type: 'image' }],
    ['content above 4096 characters', { content: 'x'.repeat(4097) }],
  ])('refuses %s with 422', async (_, body) => {
    const h = await harness();
    const id = await refusedStart(h);
    expect((await h.call('POST', `/chat/conversations/${id}/messages`, body)).status).toBe(422);
  });

  it('refuses a reply_to_id that is not a message of the conversation', async () => {
    const h = await harness();
    const id = h.state.inbound(PHONE, 'hi').conversation_id;
    const other = h.state.inbound('+5511999990002', 'yo').message_id;
    expect((await h.call('POST', `/chat/conversations/${id}/messages`, { content: 'x', reply_to_id: other })).status).toBe(422);
    const ok = await h.call('POST', `/chat/conversations/${id}/messages`, { content: 'x', reply_to_id: 1 });
    expect(ok.body.data).toMatchObject({ reply_to_id: 1, reply_to_message_id: 1 });
  });

  it('answers 404 for an unknown conversation', async () => {
    const h = await harness();
    expect((await h.call('POST', '/chat/conversations/42/messages', { content: 'x' })).status).toBe(404);
  });

  it('moves the conversation updated_at with each new message', async () => {
    const h = await harness();
    const id = h.state.inbound(PHONE, 'hi').conversation_id;
    const before = h.state.conversations.get(id)!.updatedAt;
    h.state.advanceClock(HOUR);
    const res = await h.call('POST', `/chat/conversations/${id}/messages`, { content: 'later' });
    const conversation = h.state.conversations.get(id)!;
    expect(conversation.updatedAt).toBeGreaterThanOrEqual(before + HOUR);
    expect(conversation.lastMessageId).toBe(res.body.data.id);
  });
});

describe('POST wba-send-template', () => {
  it('sends a template into a wba conversation outside the window', async () => {
    const h = await harness();
    const start = await h.start({ send_type: 'text', text: 'refused' });
    const res = await h.call('POST', `/chat/conversations/${start.body.data.conversation_id}/wba-send-template`, {
      template_name: 'promo_bf',
      language: 'pt_BR',
      variables: { '1': 'Ana', '2': 'BF10' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ content: 'Oi Ana! Seu cupom de Black Friday é BF10.\nResponda SAIR para não receber mais.\nParar promoções', senderType: 'user' });
  });

  it('refuses a ww conversation with 422', async () => {
    const h = await harness();
    const start = await h.start({ channel_id: 12, send_type: 'text', text: 'hi' });
    const res = await h.call('POST', `/chat/conversations/${start.body.data.conversation_id}/wba-send-template`, {
      template_name: 'welcome',
      language: 'en_US',
      variables: { '1': 'Ana' },
    });
    expect(res.status).toBe(422);
  });

  it('answers a template refusal with 502 and the failure envelope', async () => {
    const h = await harness();
    const start = await h.start();
    const res = await h.call('POST', `/chat/conversations/${start.body.data.conversation_id}/wba-send-template`, {
      template_name: 'draft_offer',
      language: 'en_US',
      variables: { '1': 'Ana' },
    });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ success: false, message: expect.stringMatching(/not approved/) });
  });

  it('requires template_name', async () => {
    const h = await harness();
    const start = await h.start();
    const res = await h.call('POST', `/chat/conversations/${start.body.data.conversation_id}/wba-send-template`, {});
    expect(res.status).toBe(422);
  });
});
