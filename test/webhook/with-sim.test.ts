import { createFileStore } from '../../src/checkpoint/backends.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { repliesFor } from '../../src/checkpoint/file/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { startReceiver, sync, type Receiver } from '../../src/webhook/index.js';
import { storedEvents, storedWindow } from './helpers/events.js';

const SECRET = 'whsec_sim_shared';
const PHONE = '+5511987650001';

let stateDir: string;
let sim: RunningSimulator;
let api: ApiClient;
let receiver: Receiver | undefined;

beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'outreach-sim-webhook-'));
  sim = await startSimulator({ port: 0 });
  api = createApiClient({ baseUrl: sim.url, token: sim.token });
});

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await api.close();
  await sim.close();
  await rm(stateDir, { recursive: true, force: true });
});

const eventsFile = () => path.join(stateDir, 'events.jsonl');
const windowFile = () => path.join(stateDir, 'window.json');

/** A loopback port nothing listens on: the "receiver is down" address. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function startWired(): Promise<Receiver> {
  receiver = await startReceiver({ port: 0, secret: SECRET, store: createFileStore(stateDir), api });
  sim.state.setWebhook({ url: `${receiver.url}/webhook`, secret: SECRET });
  return receiver;
}

async function delivered(r: Receiver): Promise<void> {
  await sim.state.webhookIdle();
  await r.settled();
}

describe('receiver with the simulator', () => {
  it("stores the simulator's signed inbound webhook, moves the window and links the phone through GET /client/{id}", async () => {
    const r = await startWired();
    const inbound = sim.state.inbound(PHONE, 'Oi, tudo bem?');
    await delivered(r);

    expect(sim.state.webhookDeliveries.map((d) => d.status)).toEqual([200]);
    const events = await storedEvents(eventsFile());
    const message = sim.state.messages.get(inbound.message_id)!;
    const createdAt = new Date(message.createdAt).toISOString();
    expect(events).toMatchObject([
      {
        message_id: String(inbound.message_id),
        conversation_id: String(inbound.conversation_id),
        client_id: String(inbound.client_id),
        direction: 'inbound',
        sender_type: 'client',
        content: 'Oi, tudo bem?',
        created_at: createdAt,
        source: 'webhook',
      },
    ]);
    const window = await storedWindow(windowFile());
    expect(window?.clients[String(inbound.client_id)]).toBe(createdAt);
    expect(window?.links[String(inbound.client_id)]).toBe(PHONE);
    expect(window?.phones[PHONE]).toBe(createdAt);
    expect(sim.state.requests.filter((q) => q.path === `/client/${inbound.client_id}`)).toHaveLength(1);
  });

  it("records the outbound webhook of a start-whatsapp send and the contact's reply as replied_at", async () => {
    const r = await startWired();
    const sent = await api.startWhatsapp({
      channel_id: 10,
      phone: PHONE,
      send_type: 'template',
      template_name: 'welcome',
      language: 'en_US',
      variables: { '1': 'Ana' },
    });
    await delivered(r);
    const sentAt = new Date(sim.state.messages.get(sent.messageId)!.createdAt).toISOString();
    sim.state.advanceClock(60_000);
    sim.state.inbound(PHONE, 'Thanks!');
    await delivered(r);

    const events = await storedEvents(eventsFile());
    expect(events.map((e) => [e.message_id, e.direction])).toEqual([
      [String(sent.messageId), 'outbound'],
      [expect.any(String), 'inbound'],
    ]);
    expect(events[0]).toMatchObject({ conversation_id: sent.conversationId, client_id: sent.clientId, sender_type: 'user' });

    const replies = await repliesFor(eventsFile(), new Map([[PHONE, { sentAt, clientId: sent.clientId }]]));
    expect(replies.get(PHONE)).toBe(events[1]!.created_at);
  });

  it('sync recovers a message sent while the receiver was down, and a second sync records nothing new', async () => {
    const r = await startWired();
    sim.state.inbound(PHONE, 'first, delivered');
    await delivered(r);
    await r.close();
    receiver = undefined;

    sim.state.setWebhook({ url: `http://127.0.0.1:${await closedPort()}/webhook`, secret: SECRET });
    sim.state.advanceClock(5 * 60_000);
    const missed = sim.state.inbound(PHONE, 'second, while the receiver was down');
    await sim.state.webhookIdle();
    expect(sim.state.webhookDeliveries.at(-1)).toMatchObject({ messageId: missed.message_id, pending: false });
    expect(sim.state.webhookDeliveries.at(-1)!.status).toBeUndefined();
    expect((await storedEvents(eventsFile())).map((e) => e.message_id)).not.toContain(String(missed.message_id));

    const first = await sync({ api, store: createFileStore(stateDir) });
    expect(first).toMatchObject({ recorded: 1, inboundRecorded: 1 });
    const events = await storedEvents(eventsFile());
    expect(events).toHaveLength(2);
    const recovered = events.find((e) => e.message_id === String(missed.message_id));
    const createdAt = new Date(sim.state.messages.get(missed.message_id)!.createdAt).toISOString();
    expect(recovered).toMatchObject({ direction: 'inbound', source: 'sync', phone: PHONE, created_at: createdAt });
    expect((await storedWindow(windowFile()))?.phones[PHONE]).toBe(createdAt);

    const second = await sync({ api, store: createFileStore(stateDir) });
    expect(second).toMatchObject({ recorded: 0, since: first.until });
    expect(await storedEvents(eventsFile())).toHaveLength(2);
  });

  it('sync pages through more conversations and messages than one page holds, each message once', async () => {
    for (let i = 0; i < 230; i++) sim.state.inbound(`+55119000${String(i).padStart(5, '0')}`, `hello ${i}`);
    for (let i = 0; i < 450; i++) sim.state.inbound(PHONE, `message ${i}`);
    const result = await sync({ api, store: createFileStore(stateDir) });
    expect(result).toMatchObject({ conversations: 231, messagesSeen: 680, recorded: 680, inboundRecorded: 680 });
    const events = await storedEvents(eventsFile());
    expect(new Set(events.map((e) => e.message_id)).size).toBe(680);
    expect(Object.keys((await storedWindow(windowFile()))!.phones)).toHaveLength(231);
    expect(await sync({ api, store: createFileStore(stateDir) })).toMatchObject({ recorded: 0 });
  });

  it('records every one of many concurrent deliveries exactly once', async () => {
    const r = await startWired();
    for (let i = 0; i < 300; i++) sim.state.inbound(PHONE, `burst ${i}`);
    await delivered(r);
    expect(sim.state.webhookDeliveries.every((d) => d.status === 200)).toBe(true);
    const events = await storedEvents(eventsFile());
    expect(events).toHaveLength(300);
    expect(new Set(events.map((e) => e.message_id)).size).toBe(300);
    expect(sim.state.requests.filter((q) => q.path.startsWith('/client/'))).toHaveLength(1);
  });
});
