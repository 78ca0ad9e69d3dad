import { createFileStore } from '../../src/checkpoint/backends.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../src/webhook/receiver.js';
import { signBody } from './helpers/sign.js';
import { delivery, SECRET, storedEvents, storedWindow } from './helpers/events.js';
import { send } from './helpers/http.js';

let stateDir: string;
let receiver: Receiver | undefined;
let lookups: string[];
const PHONE = '+5511999990001';

const api = {
  async getClient(id: number | string) {
    lookups.push(String(id));
    return { phone: PHONE };
  },
};

beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'outreach-webhook-'));
  lookups = [];
});

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await rm(stateDir, { recursive: true, force: true });
});

async function start(options: Partial<Parameters<typeof startReceiver>[0]> = {}): Promise<Receiver> {
  receiver = await startReceiver({ port: 0, host: '127.0.0.1', secret: SECRET, store: createFileStore(stateDir), api, ...options });
  return receiver;
}

const eventsFile = () => path.join(stateDir, 'events.jsonl');
const windowFile = () => path.join(stateDir, 'window.json');

describe('webhook receiver', () => {
  it('stores a valid inbound event, moves its client window, then links the phone found by GET /client/{id}', async () => {
    const r = await start();
    const d = delivery({ clientId: '77', conversationId: '501', createdAt: '2025-03-01T10:00:00.000Z', content: 'sim, quero' });
    const answer = await send(r.url + '/webhook', {
      body: d.raw,
      headers: { 'content-type': 'application/json', 'x-service-signature': d.signature },
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ ok: true });
    expect(answer.headers['content-type']).toMatch(/^application\/json/);

    const events = await storedEvents(eventsFile());
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      message_id: d.messageId,
      conversation_id: '501',
      client_id: '77',
      direction: 'inbound',
      sender_type: 'client',
      content: 'sim, quero',
      created_at: '2025-03-01T10:00:00.000Z',
      source: 'webhook',
    });
    expect(typeof events[0]!.received_at).toBe('string');

    await r.settled();
    expect(lookups).toEqual(['77']);
    const window = await storedWindow(windowFile());
    expect(window?.clients['77']).toBe('2025-03-01T10:00:00.000Z');
    expect(window?.links['77']).toBe(PHONE);
    expect(window?.phones[PHONE]).toBe('2025-03-01T10:00:00.000Z');
  });

  it('looks a client up once and keeps the latest inbound time (an older message never moves the window back)', async () => {
    const r = await start();
    for (const createdAt of ['2025-03-01T10:00:00.000Z', '2025-03-01T12:00:00.000Z', '2025-03-01T11:00:00.000Z']) {
      const d = delivery({ clientId: '88', createdAt });
      expect((await send(r.url, { body: d.raw, headers: { 'x-service-signature': d.signature } })).status).toBe(200);
      await r.settled();
    }
    expect(lookups).toEqual(['88']);
    const window = await storedWindow(windowFile());
    expect(window?.clients['88']).toBe('2025-03-01T12:00:00.000Z');
    expect(window?.phones[PHONE]).toBe('2025-03-01T12:00:00.000Z');
  });

  it('records an outbound event without moving any window or looking anything up', async () => {
    const r = await start();
    const d = delivery({ direction: 'outbound', clientId: '90' });
    expect((await send(r.url, { body: d.raw, headers: { 'x-service-signature': d.signature } })).status).toBe(200);
    await r.settled();
    expect(await storedEvents(eventsFile())).toMatchObject([{ message_id: d.messageId, direction: 'outbound', sender_type: 'user' }]);
    expect(lookups).toEqual([]);
    expect((await storedWindow(windowFile()))?.clients['90']).toBeUndefined();
  });

  it('takes the phone from knownPhones (a job checkpoint) without asking the platform', async () => {
    const r = await start({ knownPhones: (id) => (id === '55' ? '+5511900000055' : undefined) });
    const d = delivery({ clientId: '55' });
    await send(r.url, { body: d.raw, headers: { 'x-service-signature': d.signature } });
    await r.settled();
    expect(lookups).toEqual([]);
    expect(await storedEvents(eventsFile())).toMatchObject([{ client_id: '55', phone: '+5511900000055' }]);
    expect((await storedWindow(windowFile()))?.phones['+5511900000055']).toBe('2025-03-01T10:00:00.000Z');
  });

  it('records the number a reply came to: the number the store\'s job started its conversation from, with the event and the phone\'s window', async () => {
    const store = createFileStore(stateDir);
    const job = await store.openJob('pool', { pid: process.pid, startedAt: '2025-03-01T09:00:00.000Z', command: 'run' });
    await job.record({ t: 'header', v: 1, job: 'pool', fingerprint: 'f', content: { channel_id: [10, 11] }, at: '2025-03-01T09:00:00.000Z' });
    await job.record({ t: 'sent', phone: PHONE, via: 'start', action: 'template', conversation_id: '501', client_id: '77', message_id: '9', channel_id: 11, at: '2025-03-01T09:00:00.000Z' });
    await job.close();
    const r = await start({ store });
    const d = delivery({ clientId: '77', conversationId: '501' });
    expect((await send(r.url, { body: d.raw, headers: { 'x-service-signature': d.signature } })).status).toBe(200);
    await r.settled();
    expect(await storedEvents(eventsFile())).toMatchObject([{ conversation_id: '501', channel_id: 11 }]);
    const windows = await createFileStore(stateDir).windows();
    expect(windows.lastInboundAt(PHONE)).toBe(Date.parse('2025-03-01T10:00:00.000Z'));
    expect(windows.lastInboundChannel(PHONE)).toBe(11);
  });

  it('knows no number for a reply in a conversation no job of the store started (the person wrote first)', async () => {
    const r = await start();
    const d = delivery({ clientId: '78', conversationId: '777' });
    expect((await send(r.url, { body: d.raw, headers: { 'x-service-signature': d.signature } })).status).toBe(200);
    await r.settled();
    const [event] = await storedEvents(eventsFile());
    expect(event?.channel_id).toBeUndefined();
    const windows = await createFileStore(stateDir).windows();
    expect(windows.lastInboundAt(PHONE)).toBe(Date.parse('2025-03-01T10:00:00.000Z'));
    expect(windows.lastInboundChannel(PHONE)).toBeUndefined();
  });

  it('without an API client, still records the event and the client window (no phone)', async () => {
    receiver = await startReceiver({ port: 0, secret: SECRET, store: createFileStore(stateDir) });
    const d = delivery({ clientId: '61' });
    expect((await send(receiver.url, { body: d.raw, headers: { 'x-service-signature': d.signature } })).status).toBe(200);
    await receiver.settled();
    const window = await storedWindow(windowFile());
    expect(window?.clients['61']).toBe('2025-03-01T10:00:00.000Z');
    expect(window?.links['61']).toBeUndefined();
  });

  it('stores a message delivered twice once, and answers 200 both times', async () => {
    const r = await start();
    const d = delivery();
    const headers = { 'x-service-signature': d.signature };
    const answers = await Promise.all([send(r.url, { body: d.raw, headers }), send(r.url, { body: d.raw, headers })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect((await send(r.url, { body: d.raw, headers })).status).toBe(200);
    expect(await storedEvents(eventsFile())).toHaveLength(1);
    expect(r.stats).toMatchObject({ recorded: 1, duplicates: 2 });
  });

  it('stores a message once across a restart of the receiver', async () => {
    const d = delivery();
    let r = await start();
    await send(r.url, { body: d.raw, headers: { 'x-service-signature': d.signature } });
    await r.close();
    r = await start();
    expect((await send(r.url, { body: d.raw, headers: { 'x-service-signature': d.signature } })).status).toBe(200);
    expect(await storedEvents(eventsFile())).toHaveLength(1);
    expect(r.stats.duplicates).toBe(1);
  });

  describe('refuses without storing anything', () => {
    async function expectNothingStored(r: Receiver): Promise<void> {
      await r.settled();
      expect(await storedEvents(eventsFile())).toEqual([]);
      expect((await storedWindow(windowFile()))?.clients ?? {}).toEqual({});
      expect(lookups).toEqual([]);
    }

    it('401 for a tampered body', async () => {
      const r = await start();
      const d = delivery({ content: 'hello' });
      const tampered = Buffer.from(d.raw.toString().replaceAll('hello', 'hellO'));
      const answer = await send(r.url, { body: tampered, headers: { 'x-service-signature': d.signature } });
      expect(answer.status).toBe(401);
      await expectNothingStored(r);
    });

    it('401 for a signature made with another secret', async () => {
      const r = await start();
      const d = delivery({}, 'not-the-secret');
      expect((await send(r.url, { body: d.raw, headers: { 'x-service-signature': d.signature } })).status).toBe(401);
      await expectNothingStored(r);
    });

    it('401 for the same JSON re-serialised under the original signature', async () => {
      const r = await start();
      const d = delivery();
      const pretty = Buffer.from(JSON.stringify(JSON.parse(d.raw.toString()), null, 2));
      expect((await send(r.url, { body: pretty, headers: { 'x-service-signature': d.signature } })).status).toBe(401);
      await expectNothingStored(r);
    });

    it('401 for a missing or malformed signature header', async () => {
      const r = await start();
      const d = delivery();
      expect((await send(r.url, { body: d.raw })).status).toBe(401);
      const bare = d.signature.slice('sha256='.length);
      expect((await send(r.url, { body: d.raw, headers: { 'x-service-signature': bare } })).status).toBe(401);
      expect(r.stats.unauthorized).toBe(2);
      await expectNothingStored(r);
    });

    it('413 for a body over 1 MiB, declared by Content-Length', async () => {
      const r = await start();
      const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
      const answer = await send(r.url, { body: big, headers: { 'x-service-signature': signBody(big, SECRET) } });
      expect(answer.status).toBe(413);
      await expectNothingStored(r);
    });

    it('413 for a streamed (chunked) body that grows over 1 MiB', async () => {
      const r = await start();
      const big = Buffer.alloc(3 * 1024 * 1024, 0x20);
      const answer = await send(r.url, { body: big, chunked: true, headers: { 'x-service-signature': signBody(big, SECRET) } });
      expect(answer.status).toBe(413);
      expect(r.stats.tooLarge).toBe(1);
      await expectNothingStored(r);
    });

    it('400 for a correctly signed body that is not a chat.message event', async () => {
      const r = await start();
      const d = delivery();
      const valid = JSON.parse(d.raw.toString()) as { event: string; data: Record<string, unknown> };
      const wrongShapes = [
        Buffer.from('not json at all'),
        Buffer.from(JSON.stringify({ ...valid, event: 'chat.updated' })),
        Buffer.from(JSON.stringify({ ...valid, data: { ...valid.data, direction: 'sideways' } })),
        Buffer.from(JSON.stringify({ ...valid, data: { ...valid.data, message: { content: 'no id' } } })),
        Buffer.from(JSON.stringify({ ...valid, data: { ...valid.data, client_id: undefined } })),
        Buffer.from(JSON.stringify({ ...valid, timestamp: 'yesterday' })),
      ];
      for (const body of wrongShapes) {
        const answer = await send(r.url, { body, headers: { 'x-service-signature': signBody(body, SECRET) } });
        expect(answer.status).toBe(400);
      }
      expect(r.stats.badRequest).toBe(wrongShapes.length);
      await expectNothingStored(r);
    });

    it('405 for a GET, naming POST as allowed', async () => {
      const r = await start();
      const answer = await send(r.url, { method: 'GET' });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('POST');
      await expectNothingStored(r);
    });
  });
});
