import { describe, expect, it } from 'vitest';
import { estimateSend, ratePerSecond, requestsPerSend, windowCloses } from '../../src/app/plan/estimate.js';
import type { Action } from '../../src/plan/index.js';
import { makeJob, TEMPLATE } from '../plan/fixtures.js';

const HOUR = 3_600_000;
const template: Action = { kind: 'template', template: { name: 'promo', language: 'pt_BR', variables: {} }, mediaLeftOut: false };
const withMedia: Action = { ...template, media: { media: { url: 'https://x/y.jpg', content_type: 'image' }, placement: 'followup' } };
const inlineText: Action = { kind: 'text', text: 'oi', media: { media: { url: 'https://x/y.jpg', content_type: 'image' }, placement: 'inline' } };

describe('the send estimate of a plan', () => {
  it('counts the first message and every after-send step as requests of one contact', () => {
    const job = makeJob({ template: TEMPLATE }, { after_send: { tags: ['bf'], custom_fields: { campaign: 'bf' } } });
    expect(requestsPerSend(template, job)).toBe(3);
    expect(requestsPerSend(withMedia, job)).toBe(4);
    expect(requestsPerSend(inlineText, makeJob({ template: TEMPLATE }))).toBe(1);
    expect(requestsPerSend({ kind: 'skip', reason: 'suppressed' }, job)).toBe(0);
  });

  it('takes 25 hours for 300,000 contacts of three requests each at 10 per second', () => {
    const start = Date.UTC(2026, 10, 27, 0, 0, 0);
    const e = estimateSend({ contacts: 300_000, requests: 900_000, rate: { per_second: 10 }, start });
    expect(e.durationMs).toBe(25 * HOUR);
    expect(e.endsAt).toBe(Date.UTC(2026, 10, 28, 1, 0, 0));
    expect(e.warnings).toEqual([]);
  });

  it('goes at per_minute when it is slower than per_second', () => {
    expect(ratePerSecond({ per_second: 10, per_minute: 300 })).toBe(5);
    expect(estimateSend({ contacts: 100, requests: 300, rate: { per_second: 10, per_minute: 300 }, start: 0 }).durationMs).toBe(60_000);
  });

  it('warns when the sending window closes before the send ends, per zone of the contacts', () => {
    // 12:00 UTC on a Friday: 09:00 in Sao Paulo, window 09:00–20:00 closes at 23:00 UTC.
    const start = Date.UTC(2026, 10, 27, 12, 0, 0);
    const window = { from: '09:00', to: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const };
    const long = estimateSend({ contacts: 300_000, requests: 900_000, rate: { per_second: 10 }, start, window: { ...window, days: [...window.days] }, zones: ['America/Sao_Paulo'] });
    expect(long.warnings).toEqual([{ kind: 'quiet_hours', zone: 'America/Sao_Paulo', closesAt: Date.UTC(2026, 10, 27, 23, 0, 0) }]);
    const short = estimateSend({ contacts: 1000, requests: 1000, rate: { per_second: 10 }, start, window: { ...window, days: [...window.days] }, zones: ['America/Sao_Paulo'] });
    expect(short.warnings).toEqual([]);
    expect(windowCloses(Date.UTC(2026, 10, 27, 2, 0, 0), { ...window, days: [...window.days] }, 'America/Sao_Paulo')).toBeUndefined();
  });

  it('warns with the room left when contacts wait for the messaging limit', () => {
    const e = estimateSend({
      contacts: 250,
      requests: 250,
      rate: { per_second: 10 },
      start: 0,
      room: { used: 0, limit: 250, room: 250 },
      waitingForRoom: 750,
    });
    expect(e.warnings).toEqual([{ kind: 'messaging_limit', limit: 250, room: 250, waiting: 750 }]);
    expect(estimateSend({ contacts: 10, requests: 10, rate: { per_second: 10 }, start: 0, room: { used: 0, limit: 250, room: 250 }, waitingForRoom: 0 }).warnings).toEqual([]);
  });
});
