import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness } from './helpers.js';

const SECRET = 'whsec-inbound';
const PHONE = '+5511999990001';
const servers: Server[] = [];

afterEach(async () => {
  await closeAll();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A receiver that hands over each raw body with its signature header. */
async function receiver(): Promise<{ url: string; next(): Promise<{ raw: string; signature: string }> }> {
  const queue: Array<{ raw: string; signature: string }> = [];
  const waiting: Array<(r: { raw: string; signature: string }) => void> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { raw: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['x-service-signature']) };
      const wake = waiting.shift();
      if (wake) wake(r);
      else queue.push(r);
      res.writeHead(200).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    next: () => new Promise((resolve) => (queue.length > 0 ? resolve(queue.shift() as { raw: string; signature: string }) : waiting.push(resolve))),
  };
}

describe('inbound messages with any text', () => {
  it.each(['STOP', 'parar', '  Descadastrar ', 'Não quero mais 🙅‍♀️', 'stop\nplease'])(
    'delivers the reply %j unchanged through the signed webhook and the polling path',
    async (text) => {
      const hook = await receiver();
      const h = await harness({ webhook: { url: hook.url, secret: SECRET } });
      const sent = await h.start({ phone: PHONE });
      await hook.next();
      const since = new Date(h.state.now()).toISOString();
      h.state.advanceClock(60_000);

      const res = await fetch(`${h.sim.url}/__sim/inbound`, { method: 'POST', body: JSON.stringify({ phone: PHONE, text }) });
      const { data: ids } = (await res.json()) as { data: { conversation_id: number; message_id: number; client_id: number } };
      expect(ids.conversation_id).toBe(Number(sent.body.data.conversation_id));

      const delivery = await hook.next();
      expect(delivery.signature).toBe(`sha256=${createHmac('sha256', SECRET).update(delivery.raw).digest('hex')}`);
      const event = JSON.parse(delivery.raw);
      expect(event).toMatchObject({
        event: 'chat.message',
        data: {
          direction: 'inbound',
          conversation_id: String(ids.conversation_id),
          client_id: String(ids.client_id),
          message: { id: ids.message_id, content: text, body: text, sender_type: 'client' },
        },
      });

      const listing = await h.call('GET', `/chat/conversations?updated_at=${encodeURIComponent(since)}`);
      expect(listing.body.data.map((c: { id: number }) => c.id)).toContain(ids.conversation_id);
      const after = await h.call('GET', `/chat/conversations/${ids.conversation_id}/messages?after_id=${sent.body.data.message_id}`);
      expect(after.body.data).toMatchObject([{ id: ids.message_id, content: text, senderType: 'client', contentType: 'text' }]);
    },
  );

  it('takes any text in process too, and refuses a blank one with 422 over HTTP', async () => {
    const h = await harness();
    const { message_id } = h.state.inbound(PHONE, ' Parar ');
    expect(h.state.messages.get(message_id)).toMatchObject({ content: ' Parar ', senderType: 'client' });
    const blank = await fetch(`${h.sim.url}/__sim/inbound`, { method: 'POST', body: JSON.stringify({ phone: PHONE, text: '   ' }) });
    expect(blank.status).toBe(422);
  });
});
