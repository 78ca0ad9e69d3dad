import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness, START } from './helpers.js';

afterEach(closeAll);

describe('fault injection', () => {
  it('failRate 1 fails start-whatsapp with 502 carrying ids of a conversation that exists', async () => {
    const h = await harness({ faults: { failRate: 1 } });
    const res = await h.start();
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: true, meta: { send_status: 'failed', reason: 'injected_failure' } });
    const conversation = h.state.conversations.get(Number(res.body.data.conversation_id));
    expect(conversation).toMatchObject({ clientId: Number(res.body.data.client_id), channelId: 10 });
    expect(h.state.messages.size).toBe(0);
  });

  it('failRate 1 fails messages and wba-send-template with 502 and the failure envelope', async () => {
    const h = await harness();
    const id = (await h.start()).body.data.conversation_id;
    h.state.setFaults({ failRate: 1 });
    const media = await h.call('POST', `/chat/conversations/${id}/messages`, {
      content_type: 'image',
      file_url: 'https://x/a.png',
    });
    expect(media.status).toBe(502);
    expect(media.body.success).toBe(false);
    const template = await h.call('POST', `/chat/conversations/${id}/wba-send-template`, {
      template_name: 'welcome',
      language: 'en_US',
      variables: { '1': 'Ana' },
    });
    expect(template.status).toBe(502);
    expect(h.state.messages.size).toBe(1);
  });

  it('a partial failRate fails the same requests for the same seed', async () => {
    const outcomes = async () => {
      const h = await harness({ seed: 7, faults: { failRate: 0.5 } });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await h.start({ phone: `+55119999900${10 + i}` })).status);
      return statuses;
    };
    const first = await outcomes();
    expect(first).toContain(200);
    expect(first).toContain(502);
    expect(await outcomes()).toEqual(first);
  });

  it('wwDown fails every send on ww with 502 (ids on start-whatsapp) and leaves wba alone', async () => {
    const h = await harness();
    const open = (await h.start({ channel_id: 12, send_type: 'text', text: 'before' })).body.data.conversation_id;
    h.state.setFaults({ wwDown: true });
    const res = await h.start({ channel_id: 12, send_type: 'text', text: 'hi', phone: '+5511999990002' });
    expect(res.status).toBe(502);
    expect(res.body.meta.reason).toBe('web_session_down');
    expect(res.body.data.conversation_id).toMatch(/^\d+$/);
    expect((await h.call('POST', `/chat/conversations/${open}/messages`, { content: 'x' })).status).toBe(502);
    expect((await h.start()).status).toBe(200);
  });

  it('over the rate limit answers 429 with Retry-After and does nothing', async () => {
    const h = await harness({ faults: { rateLimitPerSecond: 2 }, wallClock: () => START });
    expect((await h.start({ phone: '+5511999990001' })).status).toBe(200);
    expect((await h.start({ phone: '+5511999990002' })).status).toBe(200);
    const limited = await h.start({ phone: '+5511999990003' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, message: expect.any(String) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(h.state.clientByPhone('+5511999990003')).toBeUndefined();
    expect(h.state.counters.rateLimited).toBe(1);
    expect(h.state.maxRequestsInWindow(1000, { acceptedOnly: true })).toBe(2);
    expect(h.state.maxRequestsInWindow(1000)).toBe(3);
  });

  it('accepts requests again once the one-second window frees', async () => {
    let wall = START;
    const h = await harness({ faults: { rateLimitPerSecond: 1 }, wallClock: () => wall });
    expect((await h.call('GET', '/wba/templates')).status).toBe(200);
    wall += 999;
    expect((await h.call('GET', '/wba/templates')).status).toBe(429);
    wall += 1;
    expect((await h.call('GET', '/wba/templates')).status).toBe(200);
  });

  it('does not rate-limit the /__sim/ controls', async () => {
    const h = await harness({ faults: { rateLimitPerSecond: 1 } });
    for (let i = 0; i < 3; i++) expect((await fetch(`${h.sim.url}/__sim/counters`)).status).toBe(200);
  });

  it('dropRate 1 closes the socket with no answer and does nothing', async () => {
    const h = await harness({ faults: { dropRate: 1 } });
    await expect(h.start()).rejects.toThrow(TypeError);
    expect(h.state.clients.size).toBe(0);
    expect(h.state.requests).toMatchObject([{ path: '/chat/conversations/start-whatsapp', status: 0, dropped: true }]);
    expect((await fetch(`${h.sim.url}/__sim/counters`)).status).toBe(200);
  });

  it('dropAfterProcessing sends the message and then closes the socket with no answer', async () => {
    const h = await harness({ faults: { dropRate: 1, dropAfterProcessing: true } });
    await expect(h.start()).rejects.toThrow(TypeError);
    expect(h.state.messageCount('+5511999990001')).toBe(1);
    expect(h.state.requests[0]).toMatchObject({ status: 200, dropped: true });
    expect(h.state.counters.dropped).toBe(1);
  });

  it('latencyMs delays the answer by that many ms', async () => {
    const asked: number[] = [];
    const h = await harness({ faults: { latencyMs: 120 }, delay: (answer, ms) => (asked.push(ms), answer(), () => undefined) });
    expect((await h.call('GET', '/wba/templates')).status).toBe(200);
    expect(asked).toEqual([120]);
    expect(h.state.requests[0]?.latencyMs).toBe(120);
  });

  it('refuses invalid fault values', async () => {
    const h = await harness();
    expect(() => h.state.setFaults({ failRate: 2 })).toThrow(/failRate/);
    expect(() => h.state.setFaults({ rateLimitPerSecond: 1.5 })).toThrow(/rateLimitPerSecond/);
    const res = await fetch(`${h.sim.url}/__sim/faults`, { method: 'POST', body: JSON.stringify({ dropRate: -1 }) });
    expect(res.status).toBe(422);
    expect(h.state.faults().dropRate).toBe(0);
  });
});
