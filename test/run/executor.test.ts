import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import type { Contact } from '../../src/contacts/index.js';
import type { Job } from '../../src/job/index.js';
import type { ChannelInfo } from '../../src/plan/index.js';
import { AUTO_INITIAL, createRateLimiter, createSenderPool, execute, runConcurrency, unlimitedLimiter, type ConcurrencySample, type ExecuteOptions, type RetryMode } from '../../src/run/index.js';
import { startSimulator, type RunningSimulator, type SimFaults } from '../../src/sim/index.js';
import { stream, tempState, testContacts, testJob, type TempState } from '../helpers/run.js';

const RUN: RetryMode = { retryFailed: false, retryInDoubt: false };
const RESUME: RetryMode = { retryFailed: true, retryInDoubt: false };
const WBA: ChannelInfo = { id: 10, type: 'wba' };
const WW: ChannelInfo = { id: 12, type: 'ww' };

let sim: RunningSimulator;
let api: ApiClient;
let state: TempState;

async function setup(faults: SimFaults = {}, token?: string) {
  sim = await startSimulator({ faults, seed: 7 });
  api = createApiClient({ baseUrl: sim.url, token: token ?? sim.token, connections: 8 });
  state = await tempState();
}

afterEach(async () => {
  await api?.close();
  await sim?.close();
  await state?.cleanup();
});

/** execute() as `outreach run` drives it (real client, real checkpoint); any option can be overridden. */
function run(job: Job, contacts: Contact[], mode: RetryMode = RUN, channel: ChannelInfo = WBA, extra: Partial<ExecuteOptions> = {}) {
  return execute({
    api,
    job,
    channel,
    contacts: stream(contacts),
    prior: (phone) => state.checkpoint.state.get(phone),
    record: (e) => state.checkpoint.record(e),
    limiter: unlimitedLimiter(),
    mode,
    concurrency: typeof job.rate.concurrency === 'number' ? job.rate.concurrency : 4,
    ...extra,
  });
}

function requestsTo(suffix: string) {
  return sim.state.requests.filter((r) => r.method === 'POST' && r.path.endsWith(suffix));
}

describe('execute against the simulator', () => {
  it('sends one template per contact through start-whatsapp and checkpoints the ids', async () => {
    await setup();
    const contacts = testContacts(20);
    const result = await run(testJob(), contacts);

    expect(result.stats.sent).toBe(20);
    for (const c of contacts) {
      const s = state.checkpoint.state.get(c.phone)!;
      expect(s.status).toBe('sent');
      expect(s.via).toBe('start');
      expect(s.conversationId).toMatch(/^\d+$/);
      expect(s.status === 'sent' && s.messageId).toMatch(/^\d+$/);
      expect(sim.state.startWhatsappCount(c.phone)).toBe(1);
      expect(sim.state.messageCount(c.phone)).toBe(1);
    }
    const body = requestsTo('/start-whatsapp')[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ channel_id: 10, send_type: 'template', template_name: 'promo_bf', language: 'pt_BR' });
  });

  it('retries 10 % 502s through wba-send-template on the same conversation, never a second start', async () => {
    await setup({ failRate: 0.1 });
    const contacts = testContacts(200);
    const result = await run(testJob({ retry: { attempts: 6, backoff_ms: 1 } }), contacts);

    expect(result.stats.sent).toBe(200);
    const retried = contacts.filter((c) => state.checkpoint.state.get(c.phone)!.via === 'template');
    expect(retried.length).toBeGreaterThan(5);
    for (const c of contacts) {
      expect(sim.state.startWhatsappCount(c.phone)).toBe(1);
      const client = sim.state.clientByPhone(c.phone)!;
      const convs = [...sim.state.conversations.values()].filter((v) => v.clientId === client.id);
      expect(convs).toHaveLength(1);
      expect(state.checkpoint.state.get(c.phone)!.conversationId).toBe(String(convs[0]!.id));
    }
    const retryPaths = requestsTo('/wba-send-template').map((r) => r.path);
    for (const c of retried) {
      expect(retryPaths).toContain(`/chat/conversations/${state.checkpoint.state.get(c.phone)!.conversationId}/wba-send-template`);
    }
  });

  it('retries free text refused outside the window as the job template', async () => {
    await setup();
    const job = testJob({
      message: {
        template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } },
        text: 'Oi {{name}}, seu cupom é {{coupon}}',
      },
    });
    // The list says they replied a minute ago; the platform has no inbound message for them.
    const contacts = testContacts(3, { lastInboundAt: Date.now() - 60_000 });
    const result = await run(job, contacts);

    expect(result.stats.sent).toBe(3);
    for (const c of contacts) {
      const s = state.checkpoint.state.get(c.phone)!;
      expect(s).toMatchObject({ status: 'sent', via: 'template', action: 'template' });
      expect(sim.state.startWhatsappCount(c.phone)).toBe(1);
    }
    expect(requestsTo('/wba-send-template')).toHaveLength(3);
  });

  it('records each ww failure with its ids while the service is down, and resume heals them on the same conversation', async () => {
    await setup({ wwDown: true });
    const job = testJob({ channel_id: 12, message: { text: 'Hi {{name}}' }, retry: { attempts: 1, backoff_ms: 1 } });
    const contacts = testContacts(10);
    const first = await run(job, contacts, RUN, WW);

    expect(first.stats.failed).toBe(10);
    for (const c of contacts) {
      const s = state.checkpoint.state.get(c.phone)!;
      expect(s).toMatchObject({ status: 'failed', retryable: true, httpStatus: 502 });
      expect(s.conversationId).toMatch(/^\d+$/);
      expect(s.clientId).toMatch(/^\d+$/);
    }

    // A plain run again does not retry failures: that is resume's job.
    const again = await run(job, contacts, RUN, WW);
    expect(again.stats.untouched).toBe(10);

    sim.state.setFaults({ wwDown: false });
    await state.reopen();
    const healed = await run(job, contacts, RESUME, WW);
    expect(healed.stats.sent).toBe(10);
    for (const c of contacts) {
      const s = state.checkpoint.state.get(c.phone)!;
      expect(s).toMatchObject({ status: 'sent', via: 'message' });
      expect(sim.state.startWhatsappCount(c.phone)).toBe(1);
      expect(sim.state.messageCount(c.phone)).toBe(1);
    }
  });

  it('waits out 429s from a platform limited below the job rate and still sends everyone', async () => {
    await setup({ rateLimitPerSecond: 20 });
    const job = testJob({ rate: { per_second: 30, concurrency: 4 } });
    const contacts = testContacts(60);
    const result = await run(job, contacts, RUN, WBA, { limiter: createRateLimiter({ perSecond: job.rate.per_second }) });

    expect(result.stats.sent).toBe(60);
    for (const c of contacts) expect(sim.state.startWhatsappCount(c.phone)).toBe(1);
    expect(sim.state.counters.rateLimited).toBeGreaterThan(0);
    // How few 429s it meets depends on the machine's timing; the pause and slow-down each 429 causes are tested in limiter.test.ts and pair-rate.test.ts with the limiter's own clock.
  });

  it('stops the whole run at the first refused token', async () => {
    await setup({}, 'wrong-token');
    const result = await run(testJob({ rate: { per_second: 1000, concurrency: 1 } }), testContacts(10));

    expect(result.stopReason).toBe('auth');
    expect(result.stopMessage).toMatch(/token was refused/);
    expect(sim.state.counters.total).toBe(1);
    expect(result.stats.failed).toBe(1);
  });

  it('fails a 422 without retrying it', async () => {
    await setup();
    // A template on a ww channel: the platform answers 422.
    const result = await run(testJob({ channel_id: 12 }), testContacts(2), RUN, WBA);

    expect(result.stats.failed).toBe(2);
    expect(requestsTo('/start-whatsapp')).toHaveLength(2);
    for (const s of state.checkpoint.state.values()) expect(s).toMatchObject({ status: 'failed', retryable: false, httpStatus: 422 });
  });

  it('marks a request whose connection dropped after sending as in doubt and never resends it by itself', async () => {
    await setup({ dropRate: 1, dropAfterProcessing: true });
    const contacts = testContacts(3);
    const first = await run(testJob(), contacts);
    expect(first.stats.inDoubt).toBe(3);

    sim.state.setFaults({ dropRate: 0 });
    await run(testJob(), contacts, RESUME);
    for (const c of contacts) {
      expect(state.checkpoint.state.get(c.phone)!.status).toBe('in_doubt');
      expect(sim.state.startWhatsappCount(c.phone)).toBe(1);
    }

    const checked = await run(testJob(), contacts, { retryFailed: true, retryInDoubt: true });
    expect(checked.stats.sent).toBe(3);
  });

  it('stops once more than max_failure_ratio of at least 50 contacts failed', async () => {
    await setup({ failRate: 1 });
    const job = testJob({ retry: { attempts: 0, backoff_ms: 1 }, limits: { max_reject_ratio: 0.2, max_failure_ratio: 0.5 }, rate: { per_second: 1000, concurrency: 1 } });
    const result = await run(job, testContacts(200));

    expect(result.stopReason).toBe('failure_ratio');
    expect(result.stats.failed).toBe(50);
    expect(requestsTo('/start-whatsapp')).toHaveLength(50);
  });

  it('tags the client and writes custom fields after the send, and follows text with media inside the window', async () => {
    await setup();
    const job = testJob({
      message: {
        template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } },
        text: 'Oi {{name}}',
        media: { url: 'https://example.com/flyer.jpg', content_type: 'image', file_name: 'flyer.jpg' },
      },
      after_send: { tags: ['bf-2026'], custom_fields: { campaign: 'bf-{{coupon}}' } },
    });
    const [open, closed] = testContacts(2);
    sim.state.inbound(open!.phone, 'oi!');
    const windowStore = new Map([[open!.phone, sim.state.now()]]);
    await run(job, [open!, closed!], RUN, WBA, { planContext: (c, now) => ({ now, lastInboundAt: windowStore.get(c.phone) }) });

    const o = state.checkpoint.state.get(open!.phone)!;
    expect(o).toMatchObject({ status: 'sent', action: 'text', followups: { media: true, 'tag:bf-2026': true, custom_fields: true } });
    const c = state.checkpoint.state.get(closed!.phone)!;
    expect(c).toMatchObject({ status: 'sent', action: 'template', mediaLeftOut: true });
    expect(c.followups.media).toBeUndefined();

    const convo = sim.state.messagesOf(Number(o.conversationId)).filter((m) => m.senderType === 'user');
    expect(convo.map((m) => m.contentType)).toEqual(['text', 'image']);
    const client = sim.state.clientByPhone(open!.phone)!;
    expect([...client.tagIds].map((id) => sim.state.tags.get(id)!.name)).toContain('bf-2026');
    expect(client.customFields.get('campaign')).toBe('bf-BF0');
  });

  it('hands a contact rejected at send time to onReject, sends it nothing and journals nothing', async () => {
    await setup();
    const job = testJob({
      message: {
        template: { name: 'welcome', language: 'pt_BR', variables: { '1': '{{name}}' } },
        text: 'Oi {{name}}, seu cupom é {{coupon}}',
      },
    });
    const [contact] = testContacts(1);
    contact!.vars.coupon = '';
    const rejects: string[] = [];
    const result = await run(job, [contact!], RUN, WBA, {
      planContext: (_c, now) => ({ now, lastInboundAt: Date.now() - 60_000 }), // the window opened since the plan: the text is chosen
      onReject: (r) => rejects.push(`${r.line}:${r.reason}`),
    });

    expect(result.stats.rejected).toBe(1);
    expect(rejects).toEqual([`${contact!.line}:missing_variable:coupon`]);
    expect(sim.state.counters.total).toBe(0);
    expect(state.checkpoint.state.size).toBe(0);
  });

  it('sends nothing without its attempt on disk when the checkpoint cannot be written, and fails the run', async () => {
    await setup();
    let written = 0;
    let attempts = 0;
    const failing = async (e: Parameters<typeof state.checkpoint.record>[0]) => {
      if (written >= 25) throw new Error('ENOSPC: no space left on device');
      written += 1;
      if (e.t === 'attempt') attempts += 1;
      await state.checkpoint.record(e);
    };
    await expect(run(testJob(), testContacts(100), RUN, WBA, { record: failing })).rejects.toThrow(/ENOSPC/);
    expect(requestsTo('/start-whatsapp').length).toBe(attempts);
    expect(attempts).toBeLessThan(100);
  });

  it('journals the media follow-up before it leaves; one lost after sending is in doubt and repeated only on request', async () => {
    await setup();
    const media = { url: 'https://example.com/f.jpg', content_type: 'image', file_name: 'f.jpg' };
    const job = testJob({ channel_id: 12, message: { text: 'Oi {{name}}', media } });
    const contacts = testContacts(3);
    // Text first via the conversation path (ww start fails), so the media follows as its own message.
    sim.state.setFaults({ wwDown: true });
    await run(job, contacts, RUN, WW);
    // resume: the text goes on the conversation; only the media request after it loses its answer.
    sim.state.setFaults({ wwDown: false });
    const healed = await run(job, contacts, RESUME, WW, {
      concurrency: 1,
      record: async (e) => {
        await state.checkpoint.record(e);
        if (e.t === 'sent') sim.state.setFaults({ dropRate: 1, dropAfterProcessing: true });
        if (e.t === 'followup' && !e.attempt) sim.state.setFaults({ dropRate: 0 });
      },
    });
    expect(healed.stats.sent).toBe(3);
    const images = (phone: string) => sim.state.messagesOf(Number(state.checkpoint.state.get(phone)!.conversationId)).filter((m) => m.contentType === 'image').length;
    for (const c of contacts) {
      const s = state.checkpoint.state.get(c.phone)!;
      expect(s.followupsInDoubt).toEqual({ media: true });
      expect(images(c.phone)).toBe(1);
    }

    sim.state.setFaults({ dropRate: 0 });
    await run(job, contacts, RESUME, WW);
    for (const c of contacts) expect(images(c.phone)).toBe(1);

    await run(job, contacts, { retryFailed: true, retryInDoubt: true }, WW);
    for (const c of contacts) {
      expect(images(c.phone)).toBe(2);
      expect(state.checkpoint.state.get(c.phone)!.followups.media).toBe(true);
    }
  });

  it('sends no media to contacts sent before the job gained one (--force-changed)', async () => {
    await setup();
    const contacts = testContacts(3);
    for (const c of contacts) sim.state.inbound(c.phone, 'oi');
    const open = () => sim.state.now();
    const textOnly = testJob({ message: { text: 'Oi {{name}}' } });
    await run(textOnly, contacts, RUN, WBA, { planContext: (_c, now) => ({ now, lastInboundAt: open() }) });
    const withMedia = testJob({ message: { text: 'Oi {{name}}', media: { url: 'https://example.com/f.jpg', content_type: 'image' } } });
    await run(withMedia, contacts, RUN, WBA, { planContext: (_c, now) => ({ now, lastInboundAt: open() }) });
    for (const c of contacts) expect(sim.state.messageCount(c.phone)).toBe(1);
  });

  it('treats a 502 that is not the platform\'s (a gateway page, no ids) as in doubt, and does not start again on resume', async () => {
    await setup();
    const { createServer } = await import('node:http');
    // A gateway that forwards to the platform, then answers an HTML 502 whatever happened.
    const gateway = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        await fetch(`${sim.url}${req.url}`, { method: req.method, headers: { authorization: req.headers.authorization!, 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
      });
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', () => r()));
    const viaGateway = createApiClient({ baseUrl: `http://127.0.0.1:${(gateway.address() as import('node:net').AddressInfo).port}`, token: sim.token });
    try {
      const [contact] = testContacts(1);
      const result = await run(testJob(), [contact!], RUN, WBA, { api: viaGateway });
      expect(result.stats.inDoubt).toBe(1);
      expect(state.checkpoint.state.get(contact!.phone)!.status).toBe('in_doubt');
      await run(testJob(), [contact!], RESUME);
      expect(sim.state.startWhatsappCount(contact!.phone)).toBe(1);
    } finally {
      await viaGateway.close();
      await new Promise((r) => gateway.close(r));
    }
  });

  it('stops cleanly while a sent contact waits to repeat an after-send step', async () => {
    await setup();
    const job = testJob({ after_send: { tags: ['a', 'b', 'c'], custom_fields: {} } });
    const contacts = testContacts(3);
    sim.state.setFaults({ failRate: 0 });
    await run(testJob(), contacts); // sent, before the job had tags
    const stop = new AbortController();
    const going = run(job, contacts, RUN, WBA, { limiter: createRateLimiter({ perSecond: 1 }), concurrency: 3, stopSignal: stop.signal });
    setTimeout(() => stop.abort(), 300);
    const result = await going;
    expect(result.stopReason).toBe('interrupted');
    expect(result.stats.untouched + result.stats.interrupted).toBeGreaterThan(0);
  });

  it('decides skipped contacts again on a second run: still skipped, nothing sent', async () => {
    await setup();
    const job = testJob({ message: { text: 'Oi {{name}}' } });
    const contacts = testContacts(4);
    const first = await run(job, contacts);
    expect(first.stats.skipped).toBe(4);
    const second = await run(job, contacts);
    expect(second.stats).toMatchObject({ skipped: 4, untouched: 0 });
    expect(sim.state.counters.total).toBe(0);
  });
});

describe('execute following the adaptive concurrency', () => {
  it('grows the requests in flight at once to the limit the controller raises after the first answers', async () => {
    // The controller's sizing (rate × measured latency) is tested in concurrency.test.ts with its own clock;
    // the rate it reaches at real latency is in `npm run bench` (bench/latency.ts). Here: the executor follows it.
    await setup();
    let limit = AUTO_INITIAL;
    const controller = { observe: () => void (limit = 40), limit: () => limit, p90LatencyMs: () => undefined, meanLatencyMs: () => undefined };
    const contacts = testContacts(200);
    let left = contacts.length;
    let inFlight = 0;
    const most: number[] = [];
    let held: Array<() => void> = [];
    // Each request waits until as many are in flight as the limit allows (or as are left): the most at once is then exact.
    const holding: ApiClient = {
      ...api,
      startWhatsapp: async (body, options) => {
        inFlight += 1;
        if (inFlight >= Math.min(limit, left)) {
          most.push(inFlight);
          for (const go of held.splice(0)) go();
        } else await new Promise<void>((r) => held.push(r));
        try {
          return await api.startWhatsapp(body, options);
        } finally {
          inFlight -= 1;
          left -= 1;
        }
      },
    };
    const result = await run(testJob(), contacts, RUN, WBA, { api: holding, limiter: unlimitedLimiter(), concurrency: 50, controller });
    expect(result.stats.sent).toBe(200);
    expect(most[0]).toBe(AUTO_INITIAL);
    expect(Math.max(...most)).toBe(40);
    expect(result.peakInFlight).toBe(40);
  });

  it('sizes the requests in flight from the first answers: rate × answer time × headroom in the second wave', async () => {
    // Answers come in waves on an injected clock: a wave leaves once every request the limit allows is
    // in flight, and all of it is answered 500 ms later (the clock moves, nothing waits).
    await setup();
    let now = 1_000_000;
    const clock = () => now;
    const job = testJob({ rate: { per_second: 100, concurrency: 'auto' } });
    const sizing = runConcurrency(job.rate, clock);
    const contacts = testContacts(200);
    let entered = 0;
    let held: Array<() => void> = [];
    const waves: number[] = [];
    const waves$: ApiClient = {
      ...api,
      startWhatsapp: async (body, options) => {
        entered += 1;
        const waiting = new Promise<void>((r) => held.push(r));
        if (held.length >= Math.min(sizing.controller.limit(), held.length + contacts.length - entered)) {
          waves.push(held.length);
          now += 500;
          for (const go of held.splice(0)) go();
        }
        await waiting;
        return api.startWhatsapp(body, options);
      },
    };
    const result = await run(job, contacts, RUN, WBA, {
      api: waves$,
      limiter: unlimitedLimiter(),
      concurrency: sizing.ceiling,
      controller: sizing.controller,
      clock,
    });
    expect(result.stats.sent).toBe(200);
    // 100/s × 0.5 s × 1.3 = 65: the first 8 answers are enough to size it.
    expect(waves.slice(0, 3)).toEqual([AUTO_INITIAL, 65, 65]);
    expect(result.peakInFlight).toBe(65);
  });

  it('keeps a fixed concurrency where it is, and shrinks workers when the controller lowers its limit', async () => {
    await setup();
    let limit = 6;
    const controller = { observe: () => undefined, limit: () => limit, p90LatencyMs: () => undefined, meanLatencyMs: () => undefined };
    let most = 0;
    let inFlight = 0;
    const counting: ApiClient = {
      ...api,
      startWhatsapp: async (body, options) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        try {
          await new Promise((r) => setTimeout(r, 5));
          return await api.startWhatsapp(body, options);
        } finally {
          inFlight -= 1;
        }
      },
    };
    const contacts = testContacts(120);
    let done = 0;
    const result = await run(testJob(), contacts, RUN, WBA, {
      api: counting,
      concurrency: 50,
      controller,
      onResult: () => {
        done += 1;
        if (done === 60) {
          expect(most).toBe(6);
          most = 0;
          limit = 2;
        }
      },
    });
    expect(result.stats.sent).toBe(120);
    expect(most).toBeLessThanOrEqual(6);
    expect(inFlight).toBe(0);
  });

  it('starts no new worker once the list has ended: the contact source is asked past its end at most once per worker', async () => {
    await setup();
    // A limit far above the list: each answer after the list's end would otherwise start the missing workers again.
    const controller = { observe: () => undefined, limit: () => 100, p90LatencyMs: () => undefined, meanLatencyMs: () => undefined };
    const contacts = testContacts(30);
    let pastEnd = 0;
    const source: AsyncIterable<Contact> = {
      [Symbol.asyncIterator]: () => {
        let i = 0;
        return {
          next: async () => {
            const c = contacts[i++];
            if (c === undefined) pastEnd += 1;
            return c === undefined ? { done: true, value: undefined } : { done: false, value: c };
          },
        };
      },
    };
    const result = await run(testJob(), contacts, RUN, WBA, { contacts: source, concurrency: 100, controller });
    expect(result.stats.sent).toBe(30);
    expect(pastEnd).toBeLessThanOrEqual(100);
  });

  it("tells the controller each worker's own time per request: its durable records count, the wire and the limiter's waits do not", async () => {
    await setup();
    const clock = { now: 1_000_000 };
    const own: number[] = [];
    const controller = { observe: () => undefined, observeOwn: (s: { ms: number }) => void own.push(s.ms), limit: () => 1, p90LatencyMs: () => undefined, meanLatencyMs: () => undefined };
    // One worker (the clock is shared); each record takes 25 ms of the run's clock; the clock stands still on the wire.
    const record = async (e: Parameters<ExecuteOptions['record']>[0]) => {
      clock.now += 25;
      await state.checkpoint.record(e);
    };
    const result = await run(testJob(), testContacts(12), RUN, WBA, { controller, record, clock: () => clock.now, concurrency: 1 });
    expect(result.stats.sent).toBe(12);
    // One request a contact, written ahead (attempt) and after (sent): 50 ms of its own.
    expect(own).toEqual(Array(12).fill(50));
  });

  it("feeds each answer to the controller with the number it went from, so a pool's numbers are sized apart", async () => {
    sim = await startSimulator({ seed: 7, channels: [{ id: 14, name: 'Sales 2', type: 'wba', status: 1 }] });
    api = createApiClient({ baseUrl: sim.url, token: sim.token, connections: 8 });
    state = await tempState();
    const samples: ConcurrencySample[] = [];
    const controller = { observe: (s: ConcurrencySample) => void samples.push(s), limit: () => 8, p90LatencyMs: () => undefined, meanLatencyMs: () => undefined };
    const pool = createSenderPool([
      { channel: WBA, limiter: unlimitedLimiter() },
      { channel: { id: 14, type: 'wba' }, limiter: unlimitedLimiter() },
    ]);
    const contacts = testContacts(40);
    const result = await run(testJob(), contacts, RUN, WBA, { pool, concurrency: 8, controller });
    expect(result.stats.sent).toBe(40);
    const sentFrom = requestsTo('/start-whatsapp').map((r) => (r.body as { channel_id: number }).channel_id).sort();
    expect(samples.map((s) => s.channelId).sort()).toEqual(sentFrom);
    expect(new Set(sentFrom)).toEqual(new Set([10, 14]));
  });

  it("takes each request's permit from its own number's limiter, never the first number's", async () => {
    sim = await startSimulator({ seed: 7, channels: [{ id: 14, name: 'Sales 2', type: 'wba', status: 1 }] });
    api = createApiClient({ baseUrl: sim.url, token: sim.token, connections: 8 });
    state = await tempState();
    const permits = new Map<number, number>([
      [10, 0],
      [14, 0],
    ]);
    const counting = (id: number) => ({
      ...unlimitedLimiter(),
      acquire: () => {
        permits.set(id, (permits.get(id) ?? 0) + 1);
        return Promise.resolve();
      },
    });
    const first = counting(10);
    const pool = createSenderPool([
      { channel: WBA, limiter: first },
      { channel: { id: 14, type: 'wba' }, limiter: counting(14) },
    ]);
    // As the run builds it: the run's limiter is the first number's.
    const result = await run(testJob(), testContacts(40), RUN, WBA, { pool, limiter: first, concurrency: 8 });
    expect(result.stats.sent).toBe(40);
    const from = (id: number) => requestsTo('/start-whatsapp').filter((r) => (r.body as { channel_id: number }).channel_id === id).length;
    expect(from(14)).toBeGreaterThan(0);
    expect(Object.fromEntries(permits)).toEqual({ 10: from(10), 14: from(14) });
  });
});
