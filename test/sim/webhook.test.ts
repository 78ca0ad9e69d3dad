import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness } from './helpers.js';

interface Received {
  raw: string;
  /** The exact bytes received. */
  bytes: Buffer;
  headers: IncomingHttpHeaders;
}

const receivers: Server[] = [];

/** A local receiver keeping every raw body; `status` (and `headers`) is what it answers. */
async function receiver(
  status = 200,
  headers: Record<string, string> = {},
): Promise<{ url: string; received: Received[]; next(): Promise<Received> }> {
  const received: Received[] = [];
  const waiting: Array<(r: Received) => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const r = { raw: bytes.toString('utf8'), bytes, headers: req.headers };
      received.push(r);
      waiting.shift()?.(r);
      res.writeHead(status, headers).end();
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

  it('signs the raw UTF-8 bytes of a non-ASCII body', async () => {
    const hook = await receiver();
    const h = await harness({ webhook: { url: hook.url, secret: SECRET } });
    expect((await h.start({ language: 'pt_BR', variables: { '1': 'João' } })).status).toBe(200);
    const delivery = await hook.next();
    expect(delivery.bytes.length).toBeGreaterThan(delivery.raw.length);
    expect(JSON.parse(delivery.raw).data.message.content).toBe('Olá João, bem-vindo!');
    const expected = `sha256=${createHmac('sha256', SECRET).update(delivery.bytes).digest('hex')}`;
    expect(delivery.headers['x-service-signature']).toBe(expected);
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
    // The receiver never answers, and its delivery gives up only after a minute: an answer now was not held for it.
    const h = await harness({ webhook: { url: `http://127.0.0.1:${port}/`, secret: SECRET }, webhookTimeoutMs: 60_000 });
    expect((await h.start()).status).toBe(200);
    expect(h.state.webhookDeliveries).toHaveLength(1);
    expect(h.state.webhookDeliveries[0]!.pending).toBe(true);
    slow.closeAllConnections();
  });

  it('ends a delivery the receiver never answers with a timeout error after webhookTimeoutMs', async () => {
    const hanging = createServer(() => {});
    receivers.push(hanging);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const { port } = hanging.address() as AddressInfo;
    const h = await harness({ webhook: { url: `http://127.0.0.1:${port}/`, secret: SECRET }, webhookTimeoutMs: 200 });
    expect((await h.start()).status).toBe(200);
    // (Whether it is still pending when the answer arrives depends on the machine's speed: not asserted here.)
    await h.state.webhookIdle();
    const [delivery] = h.state.webhookDeliveries;
    expect(delivery).toMatchObject({ pending: false, error: 'timeout' });
    expect(delivery!.status).toBeUndefined();
    // Not before its timeout (how long after it depends on the machine's load, and is not asserted).
    expect(delivery!.durationMs).toBeGreaterThanOrEqual(190);
    hanging.closeAllConnections();
  });

  it('ends every delivery in flight when the simulator closes, with no listener build-up on a shared signal', async () => {
    const hanging = createServer(() => {});
    receivers.push(hanging);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const { port } = hanging.address() as AddressInfo;
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const h = await harness({ webhook: { url: `http://127.0.0.1:${port}/`, secret: SECRET } });
      for (let i = 1; i <= 15; i++) h.state.inbound(`+55119999900${String(i).padStart(2, '0')}`, 'oi');
      await new Promise((r) => setTimeout(r, 50));
      expect(h.state.webhookDeliveries.filter((d) => d.pending)).toHaveLength(15);
      await h.sim.close();
      await h.state.webhookIdle();
      expect(h.state.webhookDeliveries.every((d) => !d.pending && d.error === 'simulator closed')).toBe(true);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      hanging.closeAllConnections();
    }
  });

  it('does not follow a redirect: a 3xx is one undelivered attempt recorded with its status', async () => {
    const target = await receiver();
    const hook = await receiver(307, { location: target.url });
    const h = await harness({ webhook: { url: hook.url, secret: SECRET } });
    expect((await h.start()).status).toBe(200);
    await h.state.webhookIdle();
    await new Promise((r) => setTimeout(r, 50));
    expect(hook.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    expect(h.state.webhookDeliveries).toMatchObject([{ status: 307, pending: false }]);
    expect(h.state.webhookDeliveries[0]!.error).toBeUndefined();
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
