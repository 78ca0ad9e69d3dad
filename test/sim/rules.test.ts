import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/sim/rate-limit.js';
import { maxInWindow } from '../../src/sim/request-log.js';
import { Router } from '../../src/sim/router.js';
import { codeAt, pickWeighted } from '../../src/sim/code-shares.js';
import { providerMessage } from '../../src/sim/provider-codes.js';
import { decideSend, type SendFacts } from '../../src/sim/rules/send-decision.js';
import { checkTemplate, placeholders } from '../../src/sim/rules/templates.js';
import { seedData } from '../../src/sim/seed.js';

const templates = seedData().templates;

describe('rate limiter (sliding one-second window)', () => {
  it('accepts up to the limit in a window and tells how many seconds until a slot frees', () => {
    const limiter = new RateLimiter(3);
    expect([limiter.take(0), limiter.take(100), limiter.take(200)]).toEqual([0, 0, 0]);
    expect(limiter.take(300)).toBe(1);
    expect(limiter.take(999)).toBe(1);
    expect(limiter.take(1000)).toBe(0);
    expect(limiter.take(1050)).toBe(1);
    expect(limiter.take(1100)).toBe(0);
  });

  it('never lets more than the limit into any one-second window', () => {
    const limiter = new RateLimiter(5);
    const accepted: number[] = [];
    for (let t = 0; t < 5000; t += 7) if (limiter.take(t) === 0) accepted.push(t);
    expect(maxInWindow(accepted, 1000)).toBe(5);
  });
});

describe('maxInWindow', () => {
  it('finds the busiest half-open window', () => {
    expect(maxInWindow([], 1000)).toBe(0);
    expect(maxInWindow([0, 500, 999, 1000, 1999], 1000)).toBe(3);
    expect(maxInWindow([0, 1000, 2000], 1000)).toBe(1);
  });
});

describe('template rules', () => {
  it('counts distinct placeholders over header and body', () => {
    expect(placeholders(templates.find((t) => t.name === 'appointment_reminder')!)).toEqual(new Set(['1', '2', '3']));
  });

  it('renders an approved template with the right variables', () => {
    expect(checkTemplate(templates, 'order_update', 'es_ES', { '1': 'Ana', '2': '#12', '3': 'lunes' })).toMatchObject({
      ok: true,
      text: 'Hola Ana, tu pedido #12 llega el lunes.',
    });
  });

  it('refuses a not-approved template before looking at variables', () => {
    expect(checkTemplate(templates, 'old_promo', 'pt_BR', {})).toMatchObject({ ok: false, reason: 'template_not_approved' });
  });
});

describe('router', () => {
  const router = new Router([
    { method: 'POST', pattern: '/chat/conversations/start-whatsapp', handler: () => ({ status: 200, body: 1 }) },
    { method: 'GET', pattern: '/chat/conversations/{id}/messages', handler: () => ({ status: 200, body: 2 }) },
    { method: 'POST', pattern: '/v/{entityType:str}/{entityId}', handler: () => ({ status: 200, body: 3 }) },
  ]);

  it('matches integer and string parameters, tolerating a trailing slash', () => {
    expect(router.match('GET', '/chat/conversations/12/messages/')).toMatchObject({ kind: 'route', params: { id: '12' } });
    expect(router.match('POST', '/v/client/3')).toMatchObject({ kind: 'route', params: { entityType: 'client', entityId: '3' } });
    expect(router.match('POST', '/v/client/x').kind).toBe('none');
    expect(router.match('GET', '/chat/conversations/start-whatsapp').kind).toBe('method-not-allowed');
  });
});

describe('decideSend (the provider\'s order of refusals)', () => {
  const clean: SendFacts = {
    channelActive: true,
    official: true,
    wwDown: false,
    forcedCode: undefined,
    spamLimited: false,
    contentRefusal: undefined,
    template: true,
    marketingStopped: false,
  };
  const noDraws = {
    providerError: () => undefined,
    injectedFailure: () => false,
  };
  const window = { kind: 'provider', reason: 'outside_window', code: 131047 } as const;

  it('sends when nothing refuses', () => {
    expect(decideSend(clean, noDraws)).toEqual({ kind: 'send' });
  });

  it('puts the inactive channel first, then the forced code, the spam limit, the message itself, marketing stopped', () => {
    const all: SendFacts = { ...clean, channelActive: false, forcedCode: 131026, spamLimited: true, contentRefusal: window, marketingStopped: true };
    expect(decideSend(all, noDraws)).toEqual({ kind: 'platform', reason: 'channel_inactive' });
    expect(decideSend({ ...all, channelActive: true }, noDraws)).toMatchObject({ kind: 'provider', code: 131026 });
    expect(decideSend({ ...all, channelActive: true, forcedCode: undefined }, noDraws)).toMatchObject({ code: 131048 });
    expect(decideSend({ ...all, channelActive: true, forcedCode: undefined, spamLimited: false }, noDraws)).toBe(window);
    expect(decideSend({ ...clean, marketingStopped: true }, noDraws)).toMatchObject({ reason: 'provider_error', code: 131050 });
    expect(decideSend({ ...clean, marketingStopped: true, template: false }, noDraws)).toEqual({ kind: 'send' });
  });

  it('draws a provider error before failRate, and neither once something refused', () => {
    let draws = 0;
    const counting = {
      providerError: () => (draws++, 131049 as const),
      injectedFailure: () => (draws++, true),
    };
    expect(decideSend(clean, counting)).toMatchObject({ code: 131049 });
    expect(draws).toBe(1);
    expect(decideSend({ ...clean, contentRefusal: window }, counting)).toBe(window);
    expect(draws).toBe(1);
  });

  it('applies no provider rule to ww: only web session down and failRate', () => {
    const ww: SendFacts = { ...clean, official: false, forcedCode: 131026, spamLimited: true, marketingStopped: true };
    expect(decideSend(ww, { providerError: () => 131026, injectedFailure: () => false })).toEqual({ kind: 'send' });
    expect(decideSend({ ...ww, wwDown: true }, noDraws)).toEqual({ kind: 'platform', reason: 'web_session_down' });
    expect(decideSend(ww, { ...noDraws, injectedFailure: () => true })).toEqual({ kind: 'platform', reason: 'injected_failure' });
  });
});

describe('provider codes and shares', () => {
  it('writes a refusal in the provider form, with any detail after it', () => {
    expect(providerMessage(131026)).toBe('(#131026) Message undeliverable.');
    expect(providerMessage(132000, 'template "x" expects 2 variables, got 1')).toBe(
      '(#132000) Number of parameters does not match the expected number of params. (template "x" expects 2 variables, got 1)',
    );
  });

  it('lays the shares end to end in ascending code order, the rest of [0, 1) being no error', () => {
    const shares = { 131049: 0.02, 131026: 0.05 };
    expect([0, 0.049, 0.05, 0.069, 0.07, 0.99].map((u) => codeAt(shares, u))).toEqual([131026, 131026, 131049, 131049, undefined, undefined]);
  });

  it('picks by weight when the shares are weights', () => {
    expect([0, 0.74, 0.75, 0.999].map((u) => pickWeighted({ 131026: 0.3, 131050: 0.1 }, u))).toEqual([131026, 131026, 131050, 131050]);
    expect(pickWeighted({}, 0.5)).toBeUndefined();
  });
});
