import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness, HOUR, START } from './helpers.js';

afterEach(closeAll);

describe('conversation status, stage and take-over', () => {
  it('takes over an automated conversation: it becomes open', async () => {
    const h = await harness();
    const id = (await h.start()).body.data.conversation_id;
    const res = await h.call('POST', `/chat/conversations/${id}/take-over`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: Number(id), status: 'open' });
    expect((await h.call('POST', `/chat/conversations/${id}/take-over`)).status).toBe(200);
    await h.call('PUT', `/chat/conversations/${id}/status`, { status: 'closed' });
    expect((await h.call('POST', `/chat/conversations/${id}/take-over`)).status).toBe(422);
  });

  it('changes status to a known value and refuses others with 422', async () => {
    const h = await harness();
    const id = (await h.start()).body.data.conversation_id;
    const res = await h.call('PUT', `/chat/conversations/${id}/status`, { status: 'pending' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('pending');
    expect((await h.call('PUT', `/chat/conversations/${id}/status`, { status: 'archived' })).status).toBe(422);
    expect((await h.call('PUT', '/chat/conversations/77/status', { status: 'open' })).status).toBe(404);
  });

  it('sets the pipeline stage and requires an integer', async () => {
    const h = await harness();
    const id = (await h.start()).body.data.conversation_id;
    const res = await h.call('PUT', `/chat/conversations/${id}/stage`, { pipeline_stage_id: 4 });
    expect(res.body.data.pipeline_stage_id).toBe(4);
    expect((await h.call('PUT', `/chat/conversations/${id}/stage`, { pipeline_stage_id: 'four' })).status).toBe(422);
  });

  it('counts conversations by every status', async () => {
    const h = await harness();
    await h.start({ phone: '+5511999990001' });
    await h.start({ phone: '+5511999990002' });
    const third = (await h.start({ phone: '+5511999990003' })).body.data.conversation_id;
    await h.call('PUT', `/chat/conversations/${third}/status`, { status: 'closed' });
    const res = await h.call('GET', '/chat/conversations/counts');
    expect(res.body).toEqual({ success: true, data: { automated: 2, open: 0, pending: 0, closed: 1 } });
  });
});

describe('GET /chat/conversations (polling by updated_at)', () => {
  it('lists conversations changed at or after updated_at, oldest change first, with the record fields', async () => {
    const h = await harness();
    const a = Number((await h.start({ phone: '+5511999990001' })).body.data.conversation_id);
    h.state.advanceClock(HOUR);
    const b = Number((await h.start({ phone: '+5511999990002' })).body.data.conversation_id);
    h.state.advanceClock(HOUR);
    h.state.inbound('+5511999990001', 'reply');
    const since = new Date(START + HOUR).toISOString();
    const res = await h.call('GET', `/chat/conversations?updated_at=${encodeURIComponent(since)}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: number }) => c.id)).toEqual([b, a]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(
      ['id', 'client_id', 'channel_id', 'status', 'topic', 'pipeline_id', 'pipeline_stage_id', 'created_at', 'updated_at', 'last_message_id'].sort(),
    );
    expect(res.body.pagination).toEqual({ current_page: 1, per_page: 50, total: 2, last_page: 1 });
    const later = new Date(h.state.now() + 1000).toISOString();
    expect((await h.call('GET', `/chat/conversations?updated_at=${encodeURIComponent(later)}`)).body.data).toEqual([]);
  });

  it('pages with page and per_page and refuses a bad updated_at', async () => {
    const h = await harness();
    for (let i = 1; i <= 5; i++) await h.start({ phone: `+551199999000${i}` });
    const res = await h.call('GET', '/chat/conversations?page=2&per_page=2');
    expect(res.body.data.map((c: { id: number }) => c.id)).toEqual([3, 4]);
    expect(res.body.pagination).toEqual({ current_page: 2, per_page: 2, total: 5, last_page: 3 });
    expect((await h.call('GET', '/chat/conversations?updated_at=yesterday')).status).toBe(422);
  });
});
