import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  AuthError,
  ConnectionError,
  NotFoundError,
  RateLimitedError,
  SendFailedError,
  ValidationError,
  createApiClient,
  templatePlaceholders,
} from '../../src/api/index.js';
import { type RunningSimulator, startSimulator } from '../../src/sim/index.js';
import { rejection } from './helpers.js';

let sim: RunningSimulator;
let api: ApiClient;
let phoneSeq = 0;
/** A fresh E.164 phone per use, so tests do not share clients. */
const phone = () => `+1555${String(7_000_000 + ++phoneSeq)}`;

beforeAll(async () => {
  sim = await startSimulator({ seed: 7 });
  api = createApiClient({ baseUrl: sim.url, token: sim.token, connections: 4 });
});
afterAll(async () => {
  await api.close();
  await sim.close();
});
afterEach(() => {
  sim.state.setFaults({ failRate: 0, wwDown: false, rateLimitPerSecond: 0, latencyMs: 0, dropRate: 0, dropAfterProcessing: false });
});

/** The status the simulator answered to the last request on this endpoint pattern. */
function lastStatus(endpoint: string): number | undefined {
  return sim.state.requests.filter((r) => r.endpoint === endpoint).at(-1)?.status;
}

const welcome = { send_type: 'template', template_name: 'welcome', language: 'en_US', variables: { '1': 'Ana' } } as const;

describe('catalog', () => {
  it('lists the company channels with their types', async () => {
    const channels = await api.listChannels(1);
    expect(channels.map((c) => [c.id, c.type, c.status])).toEqual([
      [10, 'wba', 1],
      [11, 'whatsapp', 1],
      [12, 'ww', 1],
      [13, 'wba', 0],
    ]);
  });

  it('lists approved templates with their placeholders, and every status without a filter', async () => {
    const approved = await api.listTemplates({ status: 'APPROVED' });
    expect(approved.map((t) => `${t.name}/${t.language}/${templatePlaceholders(t).length}`).sort()).toEqual([
      'appointment_reminder/en_US/3',
      'order_update/es_ES/3',
      'promo_bf/es_MX/2',
      'promo_bf/pt_BR/2',
      'welcome/en_US/1',
      'welcome/pt_BR/1',
    ]);
    const all = await api.listTemplates();
    expect(all.map((t) => t.status).sort()).toEqual(['APPROVED', 'APPROVED', 'APPROVED', 'APPROVED', 'APPROVED', 'APPROVED', 'PENDING', 'REJECTED']);
  });

  it('makes NotFoundError from an unknown company', async () => {
    expect(await rejection(api.listChannels(99))).toBeInstanceOf(NotFoundError);
  });
});

describe('authentication', () => {
  it('makes AuthError from a wrong token, without the token in the message', async () => {
    const wrong = 'wrong-token-5d1e9a';
    const other = createApiClient({ baseUrl: sim.url, token: wrong });
    try {
      const err = await rejection(other.listTemplates());
      expect(err).toBeInstanceOf(AuthError);
      expect(err).toMatchObject({ status: 401, platformMessage: 'Unauthenticated.' });
      expect((err as Error).message).not.toContain(wrong);
    } finally {
      await other.close();
    }
  });
});

describe('start-whatsapp', () => {
  it('starts a conversation with a template and returns string ids', async () => {
    const p = phone();
    const r = await api.startWhatsapp({ channel_id: 10, phone: p, name: 'Ana', ...welcome });
    expect(r.conversationId).toMatch(/^\d+$/);
    expect(r.clientId).toMatch(/^\d+$/);
    expect(Number.isInteger(r.messageId)).toBe(true);
    expect(lastStatus('POST /chat/conversations/start-whatsapp')).toBe(200);
    const { data } = await api.listMessages(r.conversationId);
    expect(data.map((m) => m.id)).toEqual([r.messageId]);
    expect(data[0]).toMatchObject({ senderType: 'user', deliveryStatus: 'sent' });
  });

  it('reuses the open conversation on the same channel', async () => {
    const p = phone();
    const first = await api.startWhatsapp({ channel_id: 10, phone: p, ...welcome });
    const second = await api.startWhatsapp({ channel_id: 10, phone: p, ...welcome });
    expect(second.conversationId).toBe(first.conversationId);
    expect(second.clientId).toBe(first.clientId);
  });

  it('makes SendFailedError with both ids from free text outside the window', async () => {
    const err = await rejection(api.startWhatsapp({ channel_id: 10, phone: phone(), send_type: 'text', text: 'hi' }));
    expect(err).toBeInstanceOf(SendFailedError);
    const e = err as SendFailedError;
    expect(e.status).toBe(502);
    expect(e.conversationId).toMatch(/^\d+$/);
    expect(e.clientId).toMatch(/^\d+$/);
  });

  it('sends wba-send-template on the conversation of a failed start', async () => {
    const p = phone();
    const failed = (await rejection(api.startWhatsapp({ channel_id: 11, phone: p, send_type: 'text', text: 'hi' }))) as SendFailedError;
    expect(failed).toBeInstanceOf(SendFailedError);
    const message = await api.sendTemplate(failed.conversationId!, { template_name: 'welcome', language: 'en_US', variables: { '1': 'Bo' } });
    expect(message.id).toBeGreaterThan(0);
    expect(lastStatus('POST /chat/conversations/{id}/wba-send-template')).toBe(200);
    const { data } = await api.listMessages(failed.conversationId!);
    expect(data.map((m) => m.id)).toEqual([message.id]);
  });

  it('makes SendFailedError with ids from an inactive channel and from a wrong variables count', async () => {
    const inactive = await rejection(api.startWhatsapp({ channel_id: 13, phone: phone(), ...welcome }));
    expect(inactive).toBeInstanceOf(SendFailedError);
    expect((inactive as SendFailedError).conversationId).toBeDefined();
    const wrongCount = await rejection(
      api.startWhatsapp({ channel_id: 10, phone: phone(), send_type: 'template', template_name: 'promo_bf', language: 'pt_BR', variables: { '1': 'x' } }),
    );
    expect(wrongCount).toBeInstanceOf(SendFailedError);
    expect(wrongCount).toMatchObject({ clientId: expect.stringMatching(/^\d+$/) });
  });

  it('makes SendFailedError with ids when the web-session service is down', async () => {
    sim.state.setFaults({ wwDown: true });
    const err = await rejection(api.startWhatsapp({ channel_id: 12, phone: phone(), send_type: 'text', text: 'hi' }));
    expect(err).toBeInstanceOf(SendFailedError);
    expect(err).toMatchObject({ conversationId: expect.stringMatching(/^\d+$/), clientId: expect.stringMatching(/^\d+$/) });
  });

  it('makes ValidationError from a template on ww and from media on wba', async () => {
    const onWw = await rejection(api.startWhatsapp({ channel_id: 12, phone: phone(), ...welcome }));
    expect(onWw).toBeInstanceOf(ValidationError);
    expect(onWw).toMatchObject({ status: 422 });
    expect((onWw as ValidationError).platformMessage).not.toBe('');
    const media = await rejection(
      api.startWhatsapp({ channel_id: 10, phone: phone(), send_type: 'text', text: 'hi', content_type: 'image', file_url: 'https://x.test/a.png' }),
    );
    expect(media).toBeInstanceOf(ValidationError);
    const unknownChannel = await rejection(api.startWhatsapp({ channel_id: 999, phone: phone(), ...welcome }));
    expect(unknownChannel).toBeInstanceOf(ValidationError);
  });

  it('sends free text inside the 24-hour window opened by an inbound message', async () => {
    const p = phone();
    sim.state.inbound(p, 'hello there');
    const r = await api.startWhatsapp({ channel_id: 10, phone: p, send_type: 'text', text: 'hi back' });
    expect(r.messageId).toBeGreaterThan(0);
  });
});

describe('messages', () => {
  it('sends text and media into a conversation; free text outside the window is a SendFailedError without ids', async () => {
    const ww = await api.startWhatsapp({ channel_id: 12, phone: phone(), send_type: 'text', text: 'first' });
    const text = await api.sendMessage(ww.conversationId, { content: 'second', client_message_id: 'cm-1' });
    expect(text).toMatchObject({ content: 'second', client_message_id: 'cm-1' });
    const media = await api.sendMessage(ww.conversationId, { file_url: 'https://x.test/a.pdf', content_type: 'document', file_name: 'a.pdf' });
    expect(media.file_url).toBe('https://x.test/a.pdf');

    const wba = await api.startWhatsapp({ channel_id: 10, phone: phone(), ...welcome });
    const refused = await rejection(api.sendMessage(wba.conversationId, { content: 'free text' }));
    expect(refused).toBeInstanceOf(SendFailedError);
    expect(refused).toMatchObject({ status: 502, conversationId: undefined });
    const missing = await rejection(api.sendMessage(wba.conversationId, { content_type: 'text' } as never));
    expect(missing).toBeInstanceOf(ValidationError);
  });

  it('pages with before_id, after_id and both (after_id prevails)', async () => {
    const start = await api.startWhatsapp({ channel_id: 12, phone: phone(), send_type: 'text', text: 'm0' });
    const c = start.conversationId;
    for (let i = 1; i < 7; i++) await api.sendMessage(c, { content: `m${i}` });
    const ids = (await api.listMessages(c, { limit: 200 })).data.map((m) => m.id);
    expect(ids).toHaveLength(7);

    const newest = await api.listMessages(c, { limit: 3 });
    expect(newest.data.map((m) => m.id)).toEqual(ids.slice(4));
    expect(newest.pagination).toEqual({ has_more: true, oldest_id: ids[4], newest_id: ids[6], limit: 3 });

    const older = await api.listMessages(c, { before_id: newest.pagination.oldest_id!, limit: 3 });
    expect(older.data.map((m) => m.id)).toEqual(ids.slice(1, 4));
    expect(older.pagination.has_more).toBe(true);

    const newer = await api.listMessages(c, { after_id: ids[0]!, limit: 3 });
    expect(newer.data.map((m) => m.id)).toEqual(ids.slice(1, 4));
    expect(newer.pagination.has_more).toBe(true);

    const both = await api.listMessages(c, { after_id: ids[4]!, before_id: ids[2]!, limit: 3 });
    expect(both.data.map((m) => m.id)).toEqual(ids.slice(5));
    expect(both.pagination.has_more).toBe(false);

    const empty = await api.listMessages(c, { after_id: ids[6]! });
    expect(empty).toEqual({ data: [], pagination: { has_more: false, oldest_id: null, newest_id: ids[6], limit: 50 } });

    const all: number[] = [];
    for await (const m of api.allMessagesAfter(c, ids[0]!, { pageSize: 2 })) all.push(m.id);
    expect(all).toEqual(ids.slice(1));
  });

  it('makes NotFoundError from an unknown conversation and ValidationError from limit 0', async () => {
    expect(await rejection(api.listMessages(999_999))).toBeInstanceOf(NotFoundError);
    const start = await api.startWhatsapp({ channel_id: 12, phone: phone(), send_type: 'text', text: 'x' });
    expect(await rejection(api.listMessages(start.conversationId, { limit: 0 }))).toBeInstanceOf(ValidationError);
  });
});

describe('conversations', () => {
  it('sets stage and status, takes over, and counts by status', async () => {
    const { conversationId } = await api.startWhatsapp({ channel_id: 10, phone: phone(), ...welcome });
    const before = await api.conversationCounts();
    expect(Object.keys(before).sort()).toEqual(['automated', 'closed', 'open', 'pending']);

    const taken = await api.takeOver(conversationId);
    expect(taken).toMatchObject({ id: Number(conversationId), status: 'open' });
    const staged = await api.setStage(conversationId, 5);
    expect(staged.pipeline_stage_id).toBe(5);
    const pending = await api.setStatus(conversationId, 'pending');
    expect(pending.status).toBe('pending');
    expect(await rejection(api.setStatus(conversationId, 'archived'))).toBeInstanceOf(ValidationError);

    const after = await api.conversationCounts();
    expect(after.pending).toBe(before.pending + 1);
    expect(after.automated).toBe(before.automated - 1);
  });

  it('lists conversations changed since a time, and iterates them all', async () => {
    const since = new Date(sim.state.now()).toISOString();
    sim.state.advanceClock(1000);
    const started = [];
    for (let i = 0; i < 5; i++) {
      started.push(await api.startWhatsapp({ channel_id: 12, phone: phone(), send_type: 'text', text: `c${i}` }));
      sim.state.advanceClock(10);
    }
    const page1 = await api.listConversations({ updated_at: since, page: 1, per_page: 2 });
    expect(page1.data.map((c) => String(c.id))).toEqual(started.slice(0, 2).map((s) => s.conversationId));
    expect(page1.pagination).toEqual({ current_page: 1, per_page: 2, total: 5, last_page: 3 });
    expect(page1.data[0]).toMatchObject({ channel_id: 12, status: 'automated' });

    const seen: string[] = [];
    for await (const c of api.allConversationsSince(since, { pageSize: 2 })) seen.push(String(c.id));
    expect(seen).toEqual(started.map((s) => s.conversationId));
  });
});

describe('clients', () => {
  it('creates, lists by phone, reads, updates and tags a client', async () => {
    const p = phone();
    const created = await api.createClient({ name: 'Ana', lastname: 'Lima', phone: p });
    expect(created).toMatchObject({ name: 'Ana', phone: p });

    const listed = await api.listClients({ phone: p });
    expect(listed.data.map((c) => c.id)).toEqual([created.id]);
    expect(listed.pagination).toMatchObject({ current_page: 1, total: 1, last_page: 1 });

    const updated = await api.updateClient(created.id, { email: 'ana@example.test', tags: ['vip'] });
    expect(updated.email).toBe('ana@example.test');
    expect(updated.tags).toEqual([expect.objectContaining({ name: 'vip' })]);

    const tag = await api.addClientTag(created.id, 'bf-2025');
    expect(tag).toMatchObject({ name: 'bf-2025' });
    await api.addClientTag(created.id, 'bf-2025');
    const read = await api.getClient(String(created.id));
    expect((read.tags ?? []).map((t) => (t as { name: string }).name).sort()).toEqual(['bf-2025', 'vip']);
    expect(read.addresses).toEqual([]);
  });

  it('makes ValidationError from a client without email or phone, NotFoundError from an unknown one', async () => {
    const none = await rejection(api.createClient({ name: 'Nobody' } as never));
    expect(none).toBeInstanceOf(ValidationError);
    expect((none as ValidationError).platformMessage).toContain('email');
    expect(await rejection(api.getClient(999_999))).toBeInstanceOf(NotFoundError);
  });
});

describe('CRM', () => {
  it('creates and deletes a tag', async () => {
    const tag = await api.createCrmTag(1, { name: 'sim-tag', color: '#000000', description: 'from a test' });
    expect(tag).toMatchObject({ name: 'sim-tag', color: '#000000' });
    expect(lastStatus('POST /company/{companyId}/crm-tags')).toBe(201);
    await api.deleteCrmTag(1, tag.id);
    expect(await rejection(api.deleteCrmTag(1, tag.id))).toBeInstanceOf(NotFoundError);
  });

  it('creates (201), updates by POST (200), lists, writes values to and deletes a custom field', async () => {
    const field = await api.createCustomField(1, { name: 'Plan', key: 'plan', required: false, options: ['gold', 'silver'], active: true });
    expect(field).toMatchObject({ name: 'Plan', key: 'plan', type: 'text', options: ['gold', 'silver'] });
    expect(lastStatus('POST /company/{companyId}/crm-custom-fields')).toBe(201);

    const updated = await api.updateCustomField(1, field.id, { name: 'Plan tier', required: true });
    expect(updated).toMatchObject({ id: field.id, name: 'Plan tier', key: 'plan', required: true });
    expect(lastStatus('POST /company/{companyId}/crm-custom-fields/{fieldId}')).toBe(200);

    const fields = await api.listCustomFields(1);
    expect(fields.map((f) => f.key)).toContain('plan');

    const client = await api.createClient({ phone: phone() });
    const values = await api.setCustomFieldValues(1, 'client', client.id, { plan: 'gold', campaign: 'bf' });
    expect(values).toEqual({ plan: 'gold', campaign: 'bf' });
    expect(lastStatus('POST /company/{companyId}/crm-custom-field-values/{entityType}/{entityId}')).toBe(200);
    const cleared = await api.setCustomFieldValues(1, 'client', client.id, { campaign: null });
    expect(cleared).toEqual({ plan: 'gold' });
    expect(await rejection(api.setCustomFieldValues(1, 'client', client.id, { nope: 'x' }))).toBeInstanceOf(ValidationError);
    expect(await rejection(api.setCustomFieldValues(1, 'client', 999_999, { plan: 'gold' }))).toBeInstanceOf(NotFoundError);

    await api.deleteCustomField(1, field.id);
    expect((await api.listCustomFields(1)).map((f) => f.key)).not.toContain('plan');
    expect(await rejection(api.updateCustomField(1, field.id, { name: 'x' }))).toBeInstanceOf(NotFoundError);
  });
});

describe('faults', () => {
  it('makes RateLimitedError with Retry-After over the rate limit', async () => {
    sim.state.setFaults({ rateLimitPerSecond: 2 });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => api.conversationCounts()));
    const limited = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as unknown);
    expect(limited.length).toBeGreaterThan(0);
    for (const err of limited) {
      expect(err).toBeInstanceOf(RateLimitedError);
      expect((err as RateLimitedError).retryAfterMs).toBeGreaterThanOrEqual(1000);
    }
  });

  it('makes ConnectionError sent=true when the socket is dropped, before or after the work', async () => {
    sim.state.setFaults({ dropRate: 1 });
    const before = await rejection(api.startWhatsapp({ channel_id: 10, phone: phone(), ...welcome }));
    expect(before).toBeInstanceOf(ConnectionError);
    expect(before).toMatchObject({ sent: true, aborted: false });

    const p = phone();
    sim.state.setFaults({ dropRate: 1, dropAfterProcessing: true });
    const after = await rejection(api.startWhatsapp({ channel_id: 10, phone: p, ...welcome }));
    expect(after).toMatchObject({ sent: true });
    expect(sim.state.messageCount(p)).toBe(1);
  });
});
