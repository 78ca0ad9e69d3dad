import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/sim/rate-limit.js';
import { maxInWindow } from '../../src/sim/request-log.js';
import { Router } from '../../src/sim/router.js';
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
