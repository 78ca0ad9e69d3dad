import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, harness, type Harness } from './helpers.js';

afterEach(closeAll);

const PHONE = '+5511999990001';
const OTHER = '+5511999990002';
const CODE_PREFIX = /^\(#(\d+)\) /;

function codeOf(message: unknown): number | undefined {
  const m = typeof message === 'string' ? CODE_PREFIX.exec(message) : null;
  return m ? Number(m[1]) : undefined;
}

async function control(h: Harness, method: string, path: string, body?: unknown) {
  const res = await fetch(`${h.sim.url}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

const promo = { template_name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana', '2': 'BF10' } };

describe('provider error codes in refusals', () => {
  it('refuses free text outside the 24-hour window with (#131047) in the provider form, on start-whatsapp and messages', async () => {
    const h = await harness();
    const res = await h.start({ send_type: 'text', text: 'Hi there' });
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/^\(#131047\) Re-engagement message\. /);
    expect(res.body.meta.reason).toBe('outside_window');
    const again = await h.call('POST', `/chat/conversations/${res.body.data.conversation_id}/messages`, { content: 'hello?' });
    expect(again.status).toBe(502);
    expect(again.body).toEqual({ success: false, message: expect.stringMatching(/^\(#131047\) /) });
  });

  it('passes template refusals on with their codes: 132001 for a missing or unapproved template, 132000 for parameters', async () => {
    const h = await harness();
    expect(codeOf((await h.start({ template_name: 'nope' })).body.message)).toBe(132001);
    expect(codeOf((await h.start({ template_name: 'draft_offer', language: 'en_US' })).body.message)).toBe(132001);
    expect(codeOf((await h.start({ variables: {} })).body.message)).toBe(132000);
  });

  it('fails 5% of sends with (#131026) when providerErrors says so, the same sends for the same seed', async () => {
    const outcomes = async () => {
      const h = await harness({ seed: 11, faults: { providerErrors: { 131026: 0.05 } } });
      const codes: Array<number | undefined> = [];
      for (let i = 0; i < 300; i++) {
        const res = await h.start({ phone: `+55119990${String(i).padStart(5, '0')}` });
        codes.push(res.status === 200 ? undefined : codeOf(res.body.message));
        if (res.status === 502) expect(res.body).toMatchObject({ success: true, meta: { reason: 'provider_error' } });
      }
      expect(h.state.messages.size).toBe(codes.filter((c) => c === undefined).length);
      return codes;
    };
    const first = await outcomes();
    const failed = first.filter((c) => c !== undefined);
    expect(new Set(failed)).toEqual(new Set([131026]));
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.length).toBeLessThan(30);
    expect(await outcomes()).toEqual(first);
  });

  it('splits the draw between codes: shares adding up to 1 fail every send with one of them', async () => {
    const h = await harness({ faults: { providerErrors: { 131049: 0.5, 131056: 0.5 } } });
    const codes = new Set<number | undefined>();
    for (let i = 0; i < 40; i++) codes.add(codeOf((await h.start({ phone: `+551199990${String(i).padStart(4, '0')}` })).body.message));
    expect(codes).toEqual(new Set([131049, 131056]));
  });

  it('fails every send to a phone forced to (#131026) until cleared, and leaves other phones alone', async () => {
    const h = await harness();
    h.state.inbound(PHONE, 'oi');
    const conversation = (await h.start()).body.data.conversation_id;
    h.state.forceProviderError(PHONE, 131026);

    const start = await h.start();
    expect(start.status).toBe(502);
    expect(start.body).toMatchObject({ message: '(#131026) Message undeliverable.', data: { conversation_id: conversation } });
    const text = await h.call('POST', `/chat/conversations/${conversation}/messages`, { content: 'in window' });
    expect(text).toMatchObject({ status: 502, body: { success: false, message: '(#131026) Message undeliverable.' } });
    const template = await h.call('POST', `/chat/conversations/${conversation}/wba-send-template`, promo);
    expect(template.body.message).toBe('(#131026) Message undeliverable.');
    expect((await h.start({ phone: OTHER })).status).toBe(200);

    h.state.clearProviderError(PHONE);
    expect((await h.start()).status).toBe(200);
  });

  it('starts the spam limit (131048) after N successful sends, for every recipient, until lifted', async () => {
    const h = await harness();
    h.state.setSpamLimit(2);
    expect((await h.start({ phone: '+5511999990011' })).status).toBe(200);
    expect((await h.start({ phone: '+5511999990012' })).status).toBe(200);
    const limited = await h.start({ phone: '+5511999990013' });
    expect(limited.body.message).toBe('(#131048) Spam rate limit hit.');
    expect((await h.start({ phone: '+5511999990011' })).status).toBe(502);
    expect(h.state.provider().spamLimit).toEqual({ afterSends: 2, sentSince: 2, reached: true });
    h.state.setSpamLimit(null);
    expect((await h.start({ phone: '+5511999990013' })).status).toBe(200);
  });

  it('refuses template sends to a phone that stopped marketing messages with (#131050), and lets free text in the window through', async () => {
    const h = await harness();
    h.state.stopMarketing(PHONE);
    const start = await h.start(promo);
    expect(start.status).toBe(502);
    expect(start.body.message).toMatch(/^\(#131050\) /);
    h.state.inbound(PHONE, 'quero falar com alguém');
    const conversation = start.body.data.conversation_id;
    expect((await h.call('POST', `/chat/conversations/${conversation}/messages`, { content: 'claro!' })).status).toBe(200);
    expect(codeOf((await h.call('POST', `/chat/conversations/${conversation}/wba-send-template`, promo)).body.message)).toBe(131050);
    h.state.resumeMarketing(PHONE);
    expect((await h.start(promo)).status).toBe(200);
  });

  it('never refuses ww sends with a provider code', async () => {
    const h = await harness({ faults: { providerErrors: { 131026: 1 } } });
    h.state.forceProviderError(PHONE, 131049);
    h.state.setSpamLimit(0);
    expect((await h.start({ channel_id: 12, send_type: 'text', text: 'oi' })).status).toBe(200);
    expect((await h.start()).body.message).toMatch(/^\(#131049\) /);
  });

  it('refuses unknown codes, shares outside 0..1 and totals above 1', async () => {
    const h = await harness();
    expect(() => h.state.setFaults({ providerErrors: { 999: 0.1 } as never })).toThrow(/999 is not a provider code/);
    expect(() => h.state.setFaults({ providerErrors: { 131026: 1.5 } })).toThrow(/131026/);
    expect(() => h.state.setFaults({ providerErrors: { 131026: 0.6, 131049: 0.6 } })).toThrow(/more than 1/);
    expect(() => h.state.forceProviderError('5511', 131026)).toThrow(/E\.164/);
    expect(h.state.faults().providerErrors).toEqual({});
  });
});

describe('provider controls under /__sim/provider', () => {
  it('forces and clears a code for phones over HTTP, and answers the provider state', async () => {
    const h = await harness();
    const forced = await control(h, 'POST', '/__sim/provider/forced-errors', { phones: [PHONE, OTHER], code: 131026 });
    expect(forced).toMatchObject({ status: 200, body: { data: { forcedErrors: { [PHONE]: 131026, [OTHER]: 131026 } } } });
    expect((await h.start()).body.message).toBe('(#131026) Message undeliverable.');
    await control(h, 'DELETE', '/__sim/provider/forced-errors', { phone: PHONE });
    expect((await control(h, 'GET', '/__sim/provider')).body.data.forcedErrors).toEqual({ [OTHER]: 131026 });
    await control(h, 'DELETE', '/__sim/provider/forced-errors');
    expect((await h.start({ phone: OTHER })).status).toBe(200);
  });

  it('marks phones as stopped marketing and sets the spam limit over HTTP', async () => {
    const h = await harness();
    await control(h, 'POST', '/__sim/provider/stopped-marketing', { phones: [PHONE] });
    expect(codeOf((await h.start()).body.message)).toBe(131050);
    await control(h, 'DELETE', '/__sim/provider/stopped-marketing', { phones: [PHONE] });
    const limit = await control(h, 'POST', '/__sim/provider/spam-limit', { afterSends: 1 });
    expect(limit.body.data.spamLimit).toEqual({ afterSends: 1, sentSince: 0, reached: false });
    expect((await h.start()).status).toBe(200);
    expect(codeOf((await h.start()).body.message)).toBe(131048);
    await control(h, 'DELETE', '/__sim/provider/spam-limit');
    expect((await h.start()).status).toBe(200);
  });

  it('answers 422 to an unknown code, a bad phone or a missing phone list', async () => {
    const h = await harness();
    expect((await control(h, 'POST', '/__sim/provider/forced-errors', { phones: [PHONE], code: 42 })).status).toBe(422);
    expect((await control(h, 'POST', '/__sim/provider/forced-errors', { phones: ['123'], code: 131026 })).status).toBe(422);
    expect((await control(h, 'POST', '/__sim/provider/stopped-marketing', {})).status).toBe(422);
    expect((await control(h, 'POST', '/__sim/provider/spam-limit', { afterSends: -1 })).status).toBe(422);
    expect((await control(h, 'POST', '/__sim/faults', { providerErrors: { '131026': 2 } })).status).toBe(422);
    expect((await control(h, 'GET', '/__sim/provider')).body.data).toEqual({ forcedErrors: {}, stoppedMarketing: [], spamLimit: null });
  });
});
