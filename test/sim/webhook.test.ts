import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness } from './helpers.js';

interface Received {
  raw: string;
  headers: IncomingHttpHeaders;
}

const receivers: Server[] = [];

/** A local receiver keeping every raw body; `status` is what it answers. */
async function receiver(status = 200): Promise<{ url: string; received: Received[]; next(): Promise<Received> }> {
  const received: Received[] = [];
  const waiting: Array<(r: Received) => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { raw: Buffer.concat(chunks).toString('utf8'), headers: req.headers };
      received.push(r);
      waiting.shift()?.(r);
      res.writeHead(status).end();
    });
  });
  receivers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    next: () => new Promise((resolve) => (received.length > waiting.length ? resolve(received[waiting.length]!) : waiting.push(resolve))),
  };
}

afterEach(async () => {
  await closeAll();
  await Promise.all(receivers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

const SECRET = 'whsec-test';

function verify(r: Received, secret: string): boolean {
  const header = String(r.headers['x-service-signature']);
  const expected = `sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`;
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}

describe('webhook chat.message', () => {
  it('posts every outbound send, signed with HMAC-SHA256 of the raw body', async () => {
    const hook = await receiver();
    const h = await harness({ webhook: { url: hook.url, secret: SECRET } });
    const sent = await h.start();
    const delivery = await hook.next();
    expect(verify(delivery, SECRET)).toBe(true);
    expect(verify(delivery, 'other-secret')).toBe(false);
    expect(delivery.headers['content-type']).toBe('application/json');
    const event = JSON.parse(delivery.raw);
    expect(event).toEqual({
      event: 'chat.message',
      data: {
        message: {
          id: sent.body.data.message_id,
          body: 'Hello Ana, welcome aboard!',
          content_type: 'template',
          content: 'Hello Ana, welcome aboard!',
          sender_type: 'user',
          sender_id: null,
          file_url: null,
          file_name: null,
          delivery_status: 'sent',
          client_message_id: null,
          created_at: expect.any(String),
        },
        conversation_id: sent.body.data.conversation_id,
        client_id: sent.body.data.client_id,
        direction: 'outbound',
      },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/),
    });
  });

  it('posts an inbound message with direction inbound', async () => {
    const hook = await receiver();
    const h = await harness({ webhook: { url: hook.url, secret: SECRET } });
    const { message_id } = h.state.inbound('+5511999990001', 'quero o cupom');
    const event = JSON.parse((await hook.next()).raw);
    expect(event.data.direction).toBe('inbound');
    expect(event.data.message).toMatchObject({ id: message_id, content: 'quero o cupom', sender_type: 'client' });
  });

  it('emits nothing for a refused send', async () => {
    const hook = await receiver();
    const h = await harness({ webhook: { url: hook.url, secret: SECRET } });
    expect((await h.start({ send_type: 'text', text: 'outside' })).status).toBe(502);
    await h.state.webhookIdle();
    expect(hook.received).toHaveLength(0);
    expect(h.state.webhookDeliveries).toHaveLength(0);
  });

  it('records a receiver error once, without retry, and the API answer is unaffected', async () => {
    const hook = await receiver(500);
    const h = await harness({ webhook: { url: hook.url, secret: SECRET } });
    expect((await h.start()).status).toBe(200);
    await h.state.webhookIdle();
    await new Promise((r) => setTimeout(r, 50));
    expect(hook.received).toHaveLength(1);
    expect(h.state.webhookDeliveries).toMatchObject([{ status: 500, pending: false, direction: 'outbound' }]);
  });

  it('answers the API even when the webhook URL refuses connections, recording the error', async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const { port } = dead.address() as AddressInfo;
    await new Promise((r) => dead.close(r));
    const h = await harness({ webhook: { url: `http://127.0.0.1:${port}/hook`, secret: SECRET } });
    expect((await h.start()).status).toBe(200);
    await h.state.webhookIdle();
    const [delivery] = h.state.webhookDeliveries;
    expect(delivery!.status).toBeUndefined();
    expect(delivery!.error).toMatch(/ECONNREFUSED/);
  });

  it('does not hold the API answer while the receiver is slow', async () => {
    const slow = createServer(() => {});
    receivers.push(slow);
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const { port } = slow.address() as AddressInfo;
    const h = await harness({ webhook: { url: `http://127.0.0.1:${port}/`, secret: SECRET } });
    const started = Date.now();
    expect((await h.start()).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.state.webhookDeliveries[0]!.pending).toBe(true);
    slow.closeAllConnections();
  });

  it('can be set and removed at run time, also through POST /__sim/webhook', async () => {
    const hook = await receiver();
    const h = await harness();
    await h.start({ phone: '+5511999990001' });
    h.state.setWebhook({ url: hook.url, secret: SECRET });
    await h.start({ phone: '+5511999990002' });
    await hook.next();
    await fetch(`${h.sim.url}/__sim/webhook`, { method: 'POST', body: '{}' });
    await h.start({ phone: '+5511999990003' });
    await h.state.webhookIdle();
    expect(hook.received).toHaveLength(1);
    expect(JSON.parse(hook.received[0]!.raw).data.client_id).toBe('2');
  });
});
