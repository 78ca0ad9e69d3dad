import { afterEach, describe, expect, it } from 'vitest';
import { defaultDelivery, foldDelivery, planDelivery, statusAt } from '../../src/sim/delivery.js';
import type { SimDelivery } from '../../src/sim/index.js';
import { closeAll, harness, HOUR, type Harness } from './helpers.js';

afterEach(closeAll);

const MINUTE = 60_000;
/** Every message delivered after exactly 5 s and read a minute later. */
const ALWAYS_READ: SimDelivery = { delivered: 1, failed: 0, read: 1, deliveredAfterMs: [5000, 5000], readAfterMs: [MINUTE, MINUTE] };

async function messages(h: Harness, conversationId: string) {
  return (await h.call('GET', `/chat/conversations/${conversationId}/messages`)).body.data;
}

describe('delivery statuses over time', () => {
  it('keeps every outbound message sent when delivery is off (the default)', async () => {
    const h = await harness();
    const id = (await h.start()).body.data.conversation_id;
    h.state.advanceClock(24 * HOUR);
    expect(await messages(h, id)).toMatchObject([{ deliveryStatus: 'sent', read: false, read_at: null, failureReason: '' }]);
    expect(h.state.deliveryPlan(1)).toBeUndefined();
  });

  it('moves a message from sent to delivered to read as the simulated clock passes each delay', async () => {
    const h = await harness({ delivery: ALWAYS_READ });
    const id = (await h.start()).body.data.conversation_id;
    const [sent] = await messages(h, id);
    expect(sent).toMatchObject({ deliveryStatus: 'sent', read: false, read_at: null, updatedAt: sent.createdAt });
    const createdAt = Date.parse(sent.createdAt);

    h.state.advanceClock(5000);
    const [delivered] = await messages(h, id);
    expect(delivered).toMatchObject({ deliveryStatus: 'delivered', read: false, read_at: null });
    expect(Date.parse(delivered.updatedAt)).toBe(createdAt + 5000);

    await fetch(`${h.sim.url}/__sim/clock`, { method: 'POST', body: JSON.stringify({ advance_ms: MINUTE }) });
    const [read] = await messages(h, id);
    const readAt = new Date(createdAt + 5000 + MINUTE).toISOString();
    expect(read).toMatchObject({ deliveryStatus: 'read', read: true, read_at: readAt, updatedAt: readAt, failureReason: '' });
  });

  it('fails a message with the provider code in failureReason, in the provider form', async () => {
    const h = await harness({ delivery: { delivered: 0, failed: 1, failureCodes: { 131026: 1 }, failedAfterMs: [1000, 1000] } });
    const id = (await h.start()).body.data.conversation_id;
    h.state.advanceClock(1000);
    expect(await messages(h, id)).toMatchObject([{ deliveryStatus: 'failed', read: false, failureReason: '(#131026) Message undeliverable.' }]);
  });

  it('counts a status change as an update of the conversation: the updated_at listing shows it, and no webhook fires', async () => {
    const h = await harness({ delivery: ALWAYS_READ, webhook: { url: 'http://127.0.0.1:9/hook', secret: 's' }, webhookTimeoutMs: 200 });
    const start = await h.start();
    const id = Number(start.body.data.conversation_id);
    const since = new Date(h.state.now() + 1).toISOString();
    const list = async () => (await h.call('GET', `/chat/conversations?updated_at=${encodeURIComponent(since)}`)).body.data;
    expect(await list()).toEqual([]);

    h.state.advanceClock(10_000);
    const [changed] = await list();
    const deliveredAt = (h.state.deliveryPlan(start.body.data.message_id) as { deliveredAt: number }).deliveredAt;
    expect(changed).toMatchObject({ id, updated_at: new Date(deliveredAt).toISOString(), last_message_id: start.body.data.message_id });
    await h.state.webhookIdle();
    expect(h.state.webhookDeliveries).toHaveLength(1);
  });

  it('decides each fate from the seed and the message id: the same seed gives the same statuses', async () => {
    const statuses = async () => {
      const h = await harness({ seed: 3, delivery: {} });
      for (let i = 0; i < 40; i++) await h.start({ phone: `+551199990${String(i).padStart(4, '0')}` });
      h.state.advanceClock(2 * HOUR);
      // read_at as the time since the send: the clock starts with wall time, so absolute times differ by run.
      return [...h.state.messages.values()].map((m) => [m.deliveryStatus, m.failureReason, m.read_at && Date.parse(m.read_at) - m.createdAt]);
    };
    const first = await statuses();
    expect(first.filter(([s]) => s === 'read').length).toBeGreaterThan(10);
    expect(first.filter(([s]) => s === 'read' || s === 'delivered').length).toBeGreaterThan(30);
    expect(await statuses()).toEqual(first);
  });

  it('leaves inbound messages delivered and ww sends move like any other', async () => {
    const h = await harness({ delivery: ALWAYS_READ });
    h.state.inbound('+5511999990001', 'oi');
    const ww = await h.start({ channel_id: 12, send_type: 'text', text: 'hi', phone: '+5511999990002' });
    h.state.advanceClock(HOUR);
    expect(h.state.messages.get(1)).toMatchObject({ senderType: 'client', deliveryStatus: 'delivered' });
    expect(h.state.messages.get(ww.body.data.message_id)?.deliveryStatus).toBe('read');
  });

  it('turned off, new messages stay sent while those already sent keep their fate', async () => {
    const h = await harness({ delivery: ALWAYS_READ });
    const before = (await h.start()).body.data.message_id;
    h.state.setDelivery(null);
    const after = (await h.start({ phone: '+5511999990002' })).body.data.message_id;
    h.state.advanceClock(HOUR);
    expect(h.state.messages.get(before)?.deliveryStatus).toBe('read');
    expect(h.state.messages.get(after)?.deliveryStatus).toBe('sent');
  });
});

describe('delivery controls under /__sim/delivery', () => {
  async function control(h: Harness, method: string, body?: unknown) {
    const res = await fetch(`${h.sim.url}/__sim/delivery`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }

  it('turns delivery on over the defaults, answers the settings, and turns it off', async () => {
    const h = await harness();
    expect((await control(h, 'GET')).body.data).toBeNull();
    const on = await control(h, 'POST', { failed: 0.05, readAfterMs: [1000, 2000] });
    expect(on.body.data).toEqual({ ...defaultDelivery(), failed: 0.05, readAfterMs: [1000, 2000] });
    const id = (await h.start()).body.data.message_id;
    expect(h.state.deliveryPlan(id)).toBeDefined();
    expect((await control(h, 'DELETE')).body.data).toBeNull();
    expect(h.state.delivery()).toBeNull();
  });

  it('answers 422 to shares outside 0..1, delivered and failed above 1 together, or a bad delay range', async () => {
    const h = await harness();
    expect((await control(h, 'POST', { read: 2 })).status).toBe(422);
    expect((await control(h, 'POST', { delivered: 0.97, failed: 0.04 })).body.message).toMatch(/add up to more than 1/);
    expect((await control(h, 'POST', { deliveredAfterMs: [20, 10] })).status).toBe(422);
    expect((await control(h, 'POST', { failureCodes: { 131026: 0 } })).status).toBe(422);
    expect(h.state.delivery()).toBeNull();
  });
});

describe('delivery plans (pure)', () => {
  it('gives shares close to the settings over many messages, with delays inside their ranges', () => {
    const settings = foldDelivery(defaultDelivery(), { delivered: 0.9, read: 0.6, failed: 0.05 });
    const plans = Array.from({ length: 20_000 }, (_, i) => planDelivery(settings, 99, i + 1, 0));
    const delivered = plans.filter((p) => p.fate === 'delivered');
    const failed = plans.filter((p) => p.fate === 'failed');
    expect(delivered.length / plans.length).toBeCloseTo(0.9, 1);
    expect(failed.length / plans.length).toBeCloseTo(0.05, 1);
    expect(delivered.filter((p) => p.readAt !== null).length / delivered.length).toBeCloseTo(0.6, 1);
    for (const p of delivered) {
      expect(p.deliveredAt).toBeGreaterThanOrEqual(2000);
      expect(p.deliveredAt).toBeLessThanOrEqual(20_000);
      if (p.readAt !== null) expect(p.readAt - p.deliveredAt).toBeGreaterThanOrEqual(MINUTE);
    }
    expect(new Set(failed.map((p) => p.code))).toEqual(new Set([131026, 131049, 131050]));
  });

  it('tells the status at any time: sent, then delivered, then read', () => {
    const plan = { fate: 'delivered', deliveredAt: 10, readAt: 50 } as const;
    expect([0, 10, 49, 50].map((t) => statusAt(plan, t))).toEqual([
      { status: 'sent' },
      { status: 'delivered', at: 10 },
      { status: 'delivered', at: 10 },
      { status: 'read', at: 50 },
    ]);
  });
});
