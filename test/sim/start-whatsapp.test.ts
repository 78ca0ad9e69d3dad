import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness, HOUR } from './helpers.js';

afterEach(closeAll);

const PHONE = '+5511999990001';

describe('start-whatsapp validation (422 before anything is created)', () => {
  it('refuses send_type template on a ww channel with 422', async () => {
    const h = await harness();
    const res = await h.start({ channel_id: 12 });
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(h.state.clients.size).toBe(0);
    expect(h.state.conversations.size).toBe(0);
  });

  it.each(['content_type', 'file_url', 'file_name'])('refuses %s on a wba or whatsapp channel with 422', async (field) => {
    const h = await harness();
    for (const channel_id of [10, 11]) {
      const res = await h.start({ channel_id, send_type: 'text', text: 'hi', [field]: field === 'content_type' ? 'image' : 'x.png' });
      expect(res.status).toBe(422);
    }
    expect(h.state.clients.size).toBe(0);
  });

  it('refuses content_type and file_url together (a complete media attachment) on a wba or whatsapp channel with 422', async () => {
    const h = await harness();
    h.state.inbound(PHONE, 'oi'); // window open: only the media rule can refuse
    const clients = h.state.clients.size;
    for (const channel_id of [10, 11]) {
      for (const send_type of ['text', 'template']) {
        const res = await h.start({ channel_id, send_type, text: 'see this', content_type: 'image', file_url: 'https://x/a.png' });
        expect(res.status).toBe(422);
        expect(res.body.message).toMatch(/only available on ww/);
      }
    }
    expect(h.state.clients.size).toBe(clients);
    expect(h.state.messageCount(PHONE)).toBe(0);
  });

  it('requires template_name for send_type template', async () => {
    const h = await harness();
    const res = await h.start({ template_name: undefined });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/template_name/);
    expect(h.state.clients.size).toBe(0);
  });

  it('requires text for send_type text', async () => {
    const h = await harness();
    const res = await h.start({ channel_id: 12, send_type: 'text' });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/text/);
  });

  it('refuses a phone without a leading + and digits', async () => {
    const h = await harness();
    for (const phone of ['5511999990001', '+55 11 99999-0001', '+abc', '']) {
      expect((await h.start({ phone })).status).toBe(422);
    }
    expect(h.state.clients.size).toBe(0);
  });

  it('refuses an unknown channel_id and a bad send_type with 422', async () => {
    const h = await harness();
    expect((await h.start({ channel_id: 99 })).status).toBe(422);
    expect((await h.start({ send_type: 'audio' })).status).toBe(422);
    expect((await h.start({ channel_id: '10' })).status).toBe(422);
  });

  it('requires content_type with file_url on ww', async () => {
    const h = await harness();
    const res = await h.start({ channel_id: 12, send_type: 'text', text: 'see this', file_url: 'https://x/a.png' });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/content_type/);
  });

  it('refuses a language not of the form xx_XX and text above 4096 characters', async () => {
    const h = await harness();
    expect((await h.start({ language: 'en' })).status).toBe(422);
    expect((await h.start({ channel_id: 12, send_type: 'text', text: 'x'.repeat(4097) })).status).toBe(422);
    expect(h.state.clients.size).toBe(0);
  });
});

describe('start-whatsapp sends', () => {
  it('creates client and automated conversation and answers 200 with string ids and the message id', async () => {
    const h = await harness();
    const res = await h.start();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: { conversation_id: expect.stringMatching(/^\d+$/), client_id: expect.stringMatching(/^\d+$/), message_id: expect.any(Number) },
    });
    const client = h.state.clientByPhone(PHONE)!;
    expect(client.name).toBe('Ana');
    expect(String(client.id)).toBe(res.body.data.client_id);
    const conversation = h.state.conversations.get(Number(res.body.data.conversation_id))!;
    expect(conversation).toMatchObject({ status: 'automated', channelId: 10, clientId: client.id });
    const [message] = h.state.messagesOf(conversation.id);
    expect(message).toMatchObject({
      id: res.body.data.message_id,
      senderType: 'user',
      deliveryStatus: 'sent',
      content: 'Hello Ana, welcome aboard!',
    });
  });

  it('reuses the open conversation of the same phone and channel, with a new message', async () => {
    const h = await harness();
    const first = await h.start();
    const second = await h.start({ name: 'Other' });
    expect(second.status).toBe(200);
    expect(second.body.data.conversation_id).toBe(first.body.data.conversation_id);
    expect(second.body.data.client_id).toBe(first.body.data.client_id);
    expect(second.body.data.message_id).toBeGreaterThan(first.body.data.message_id);
    expect(h.state.messagesOf(Number(first.body.data.conversation_id))).toHaveLength(2);
    expect(h.state.clientByPhone(PHONE)!.name).toBe('Ana');
  });

  it('opens a separate conversation on another channel for the same client', async () => {
    const h = await harness();
    const wba = await h.start();
    const other = await h.start({ channel_id: 11 });
    expect(other.body.data.client_id).toBe(wba.body.data.client_id);
    expect(other.body.data.conversation_id).not.toBe(wba.body.data.conversation_id);
  });

  it('does not reuse a closed conversation', async () => {
    const h = await harness();
    const first = await h.start();
    await h.call('PUT', `/chat/conversations/${first.body.data.conversation_id}/status`, { status: 'closed' });
    const second = await h.start();
    expect(second.body.data.conversation_id).not.toBe(first.body.data.conversation_id);
    expect(h.state.conversations.get(Number(second.body.data.conversation_id))!.status).toBe('automated');
  });

  it('refuses free text on wba outside the 24-hour window with 502 carrying the ids, storing no message', async () => {
    const h = await harness();
    const res = await h.start({ send_type: 'text', text: 'Hi there' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      success: true,
      message: expect.any(String),
      meta: { send_status: 'failed', reason: 'outside_window' },
      data: { conversation_id: expect.stringMatching(/^\d+$/), client_id: expect.stringMatching(/^\d+$/) },
    });
    const conversation = h.state.conversations.get(Number(res.body.data.conversation_id));
    expect(conversation).toBeDefined();
    expect(h.state.clients.get(Number(res.body.data.client_id))!.phone).toBe(PHONE);
    expect(h.state.messagesOf(conversation!.id)).toHaveLength(0);
  });

  it('sends the same free text once the client has written within 24 hours', async () => {
    const h = await harness();
    const refused = await h.start({ channel_id: 11, send_type: 'text', text: 'Hi there' });
    expect(refused.status).toBe(502);
    h.state.inbound(PHONE, 'hello?');
    const sent = await h.start({ channel_id: 11, send_type: 'text', text: 'Hi there' });
    expect(sent.status).toBe(200);
    expect(h.state.messages.get(sent.body.data.message_id)).toMatchObject({ content: 'Hi there', contentType: 'text' });
  });

  it('refuses free text again once the simulated clock passes 24 hours after the inbound', async () => {
    const h = await harness();
    h.state.inbound(PHONE, 'hello?');
    h.state.advanceClock(23 * HOUR);
    expect((await h.start({ send_type: 'text', text: 'still open' })).status).toBe(200);
    h.state.advanceClock(HOUR + 1);
    const res = await h.start({ send_type: 'text', text: 'closed now' });
    expect(res.status).toBe(502);
    expect(res.body.meta.reason).toBe('outside_window');
  });

  it('sends a template outside the window and it does not open the window', async () => {
    const h = await harness();
    expect((await h.start()).status).toBe(200);
    expect((await h.start({ send_type: 'text', text: 'follow-up' })).status).toBe(502);
  });

  it('sends text and media on ww without any window', async () => {
    const h = await harness();
    const text = await h.start({ channel_id: 12, send_type: 'text', text: 'hi' });
    expect(text.status).toBe(200);
    const media = await h.start({
      channel_id: 12,
      send_type: 'text',
      text: 'the brochure',
      content_type: 'application/pdf',
      file_url: 'https://files.example/b.pdf',
      file_name: 'b.pdf',
    });
    expect(media.status).toBe(200);
    expect(h.state.messages.get(media.body.data.message_id)).toMatchObject({
      contentType: 'application/pdf',
      file_url: 'https://files.example/b.pdf',
      file_name: 'b.pdf',
    });
  });

  it.each([
    ['an unknown template', { template_name: 'nope' }, 'template_not_found'],
    ['a pending template', { template_name: 'draft_offer' }, 'template_not_approved'],
    ['a rejected template', { template_name: 'old_promo', language: 'pt_BR' }, 'template_not_approved'],
    ['a wrong language', { language: 'es_ES' }, 'template_not_found'],
    ['too few variables', { template_name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana' } }, 'template_parameters'],
    ['too many variables', { variables: { '1': 'Ana', '2': 'extra' } }, 'template_parameters'],
    ['no variables', { variables: undefined }, 'template_parameters'],
    ['a wrong placeholder', { variables: { '2': 'Ana' } }, 'template_parameters'],
    ['an empty value', { variables: { '1': '' } }, 'template_parameters'],
    ['no language for a name in two languages', { language: undefined }, 'template_not_found'],
  ])('refuses %s with 502 carrying the ids', async (_, fields, reason) => {
    const h = await harness();
    const res = await h.start(fields);
    expect(res.status).toBe(502);
    expect(res.body.meta.reason).toBe(reason);
    expect(res.body.data.conversation_id).toMatch(/^\d+$/);
    expect(h.state.conversations.size).toBe(1);
    expect(h.state.messages.size).toBe(0);
  });

  it('counts distinct placeholders across header and body of a template', async () => {
    const h = await harness();
    const res = await h.start({
      template_name: 'appointment_reminder',
      language: 'en_US',
      variables: { '1': 'Ana', '2': 'Monday', '3': '10:00' },
    });
    expect(res.status).toBe(200);
    expect(h.state.messages.get(res.body.data.message_id)!.content).toBe(
      'Reminder for Ana\nYour appointment is on Monday at 10:00.',
    );
  });

  it('finds a template without language when its name exists in one language only', async () => {
    const h = await harness();
    const res = await h.start({ template_name: 'order_update', language: undefined, variables: { '1': 'a', '2': 'b', '3': 'c' } });
    expect(res.status).toBe(200);
  });

  it('refuses any send on an inactive channel with 502 carrying the ids', async () => {
    const h = await harness();
    const res = await h.start({ channel_id: 13 });
    expect(res.status).toBe(502);
    expect(res.body.meta.reason).toBe('channel_inactive');
    expect(res.body.data.client_id).toMatch(/^\d+$/);
  });

  it('stores topic and pipeline of a new conversation', async () => {
    const h = await harness();
    const res = await h.start({ topic: 'bf', pipeline_id: 3, pipeline_stage_id: 7 });
    expect(h.state.conversations.get(Number(res.body.data.conversation_id))).toMatchObject({
      topic: 'bf',
      pipelineId: 3,
      pipelineStageId: 7,
    });
  });

  it('counts start-whatsapp requests per phone, whatever their answer', async () => {
    const h = await harness();
    await h.start();
    await h.start({ send_type: 'text', text: 'x' });
    await h.start({ channel_id: 12 });
    expect(h.state.startWhatsappCount(PHONE)).toBe(3);
    expect(h.state.messageCount(PHONE)).toBe(1);
  });
});
