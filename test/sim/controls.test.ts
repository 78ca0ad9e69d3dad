import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness, HOUR, START } from './helpers.js';

afterEach(closeAll);

async function control(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

describe('simulator controls under /__sim/', () => {
  it('POST /__sim/inbound opens the window so free text is sent', async () => {
    const h = await harness();
    const res = await control(h.sim.url, 'POST', '/__sim/inbound', { phone: '+5511999990001', text: 'oi' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ client_id: 1, conversation_id: 1, message_id: 1 });
    const sent = await h.start({ send_type: 'text', text: 'hello' });
    expect(sent.status).toBe(200);
    expect(sent.body.data.conversation_id).toBe('1');
  });

  it('POST /__sim/inbound by client_id, and 404 for an unknown client', async () => {
    const h = await harness();
    await h.call('POST', '/clients', { phone: '+5511999990001' });
    expect((await control(h.sim.url, 'POST', '/__sim/inbound', { client_id: 1, text: 'oi' })).status).toBe(200);
    expect(h.state.clients.get(1)!.lastInboundAt).toBe(h.state.messages.get(1)!.createdAt);
    expect((await control(h.sim.url, 'POST', '/__sim/inbound', { client_id: 5, text: 'oi' })).status).toBe(404);
    expect((await control(h.sim.url, 'POST', '/__sim/inbound', { text: 'oi' })).status).toBe(422);
  });

  it('POST /__sim/clock moves the simulated clock and closes the 24-hour window', async () => {
    const h = await harness();
    h.state.inbound('+5511999990001', 'oi');
    expect((await h.start({ send_type: 'text', text: 'in window' })).status).toBe(200);
    const res = await control(h.sim.url, 'POST', '/__sim/clock', { advance_ms: 24 * HOUR });
    expect(res.body.data.now).toBeGreaterThanOrEqual(START + 24 * HOUR);
    expect((await h.start({ send_type: 'text', text: 'too late' })).status).toBe(502);
    expect((await control(h.sim.url, 'POST', '/__sim/clock', { advance_ms: -1 })).status).toBe(422);
  });

  it('starts the simulated clock at startTime, runs it with the wall clock, and stamps records with it', async () => {
    let wall = 1_000_000;
    const h = await harness({ wallClock: () => wall });
    expect(h.state.now()).toBe(START);
    wall += 1_500;
    const res = await h.start();
    const message = (await h.call('GET', `/chat/conversations/${res.body.data.conversation_id}/messages`)).body.data[0];
    expect(Date.parse(message.createdAt)).toBe(START + 1_500);
    expect(h.state.now()).toBe(START + 1_500);
  });

  it('GET /__sim/counters counts API requests by endpoint and status, not controls', async () => {
    const h = await harness();
    await h.start();
    await h.start({ channel_id: 12 });
    await h.call('GET', '/chat/conversations/1/messages');
    const res = await control(h.sim.url, 'GET', '/__sim/counters');
    expect(res.body.data).toMatchObject({
      total: 3,
      byEndpoint: {
        'POST /chat/conversations/start-whatsapp': 2,
        'GET /chat/conversations/{id}/messages': 1,
      },
      byStatus: { '200': 2, '422': 1 },
      messagesOutbound: 1,
      max_requests_per_second: expect.any(Number),
    });
  });

  it('POST /__sim/faults sets faults and answers them', async () => {
    const h = await harness();
    const res = await control(h.sim.url, 'POST', '/__sim/faults', { wwDown: true });
    expect(res.body.data).toMatchObject({ wwDown: true, failRate: 0 });
    expect(h.state.faults().wwDown).toBe(true);
  });

  it('GET /__sim/requests serves the request log with parsed body, query, status and times', async () => {
    const h = await harness();
    await h.start();
    await h.call('GET', '/chat/conversations/1/messages?limit=5');
    await control(h.sim.url, 'GET', '/__sim/counters');
    const res = await control(h.sim.url, 'GET', '/__sim/requests');
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]).toMatchObject({
      method: 'POST',
      path: '/chat/conversations/start-whatsapp',
      body: { phone: '+5511999990001', template_name: 'welcome' },
      status: 200,
      endpoint: 'POST /chat/conversations/start-whatsapp',
      at: expect.any(Number),
      wall: expect.any(Number),
    });
    expect(res.body.data[1]).toMatchObject({ query: { limit: '5' }, status: 200 });
    expect((await control(h.sim.url, 'GET', '/__sim/requests?limit=1')).body.data).toHaveLength(1);
  });

  it('keeps counting with the request log disabled', async () => {
    const h = await harness({ logRequests: false });
    await h.start();
    expect(h.state.requests).toHaveLength(0);
    expect(h.state.counters.total).toBe(1);
    expect(h.state.startWhatsappCount('+5511999990001')).toBe(1);
  });

  it('answers an unknown control with 404', async () => {
    const h = await harness();
    expect((await control(h.sim.url, 'GET', '/__sim/nope')).status).toBe(404);
  });
});
