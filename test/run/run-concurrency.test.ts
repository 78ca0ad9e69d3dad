import { describe, expect, it } from 'vitest';
import { ConnectionError, errorFromResponse } from '../../src/api/index.js';
import { AUTO_INITIAL, answerKind, boundWatch, concurrencyBoundNow, runConcurrency } from '../../src/run/index.js';
import { testJob } from '../helpers/run.js';

const wire = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  errorFromResponse(status, body, headers, 'POST', '/chat/conversations/start-whatsapp');
const noAnswer = (code: string | undefined, aborted = false) =>
  new ConnectionError('x', { method: 'POST', path: '/x' }, { sent: true, aborted, code, cause: undefined });

describe('answerKind', () => {
  it('reads timeouts, 429s, 5xx and dropped connections as overload', () => {
    expect(answerKind(noAnswer('UND_ERR_HEADERS_TIMEOUT'))).toBe('timeout');
    expect(answerKind(noAnswer('UND_ERR_BODY_TIMEOUT'))).toBe('timeout');
    expect(answerKind(wire(429, { success: false, message: 'slow down' }))).toBe('rate_limited');
    expect(answerKind(wire(503, { success: false, message: 'busy' }))).toBe('server_error');
    expect(answerKind(wire(502, '<html>bad gateway</html>'))).toBe('server_error');
    expect(answerKind(noAnswer('ECONNRESET'))).toBe('server_error');
  });

  it("reads a refusal of the request itself as an answer like any other (the platform is not overloaded)", () => {
    expect(answerKind(wire(422, { success: false, message: 'invalid' }))).toBe('ok');
    expect(answerKind(wire(502, { success: true, message: 'provider refused', meta: {}, data: { conversation_id: '7', client_id: '9' } }))).toBe('ok');
  });

  it('learns nothing from a request the run cut itself', () => {
    expect(answerKind(noAnswer('UND_ERR_ABORTED', true))).toBeUndefined();
  });
});

describe('runConcurrency', () => {
  it('starts "auto" at a few requests, with max_concurrency as its ceiling', () => {
    const c = runConcurrency(testJob({ rate: { per_second: 80 } }).rate, () => 0);
    expect(c).toMatchObject({ mode: 'auto', ceiling: 1000, askedPerSecond: 80 });
    expect(c.controller.limit()).toBe(AUTO_INITIAL);
    expect(runConcurrency(testJob({ rate: { per_second: 80, max_concurrency: 5 } }).rate, () => 0).controller.limit()).toBe(5);
  });

  it('keeps a fixed number where it is, whatever the answers say', () => {
    let now = 0;
    const c = runConcurrency(testJob({ rate: { per_second: 1000, concurrency: 64 } }).rate, () => now);
    for (let i = 0; i < 2000; i++) {
      now += 2;
      c.controller.observe({ latencyMs: 500, kind: 'ok' });
    }
    c.controller.observe({ latencyMs: 30_000, kind: 'timeout' });
    expect(c).toMatchObject({ mode: 'fixed', ceiling: 64 });
    expect(c.controller.limit()).toBe(64);
  });

  it('counts per_minute in the asked rate when it is the lower one', () => {
    expect(runConcurrency(testJob({ rate: { per_second: 100, per_minute: 600 } }).rate, () => 0).askedPerSecond).toBe(10);
  });
});

describe('concurrencyBoundNow', () => {
  function measured(rate: Parameters<typeof testJob>[0], latencyMs: number) {
    let now = 0;
    const c = runConcurrency(testJob(rate).rate, () => now);
    for (let i = 0; i < 200; i++) {
      now += 5;
      c.controller.observe({ latencyMs, kind: 'ok' });
    }
    return c;
  }

  it('says a fixed concurrency keeps the run below the asked rate at 500 ms answers', () => {
    const c = measured({ rate: { per_second: 1000, concurrency: 64 } }, 500);
    expect(concurrencyBoundNow(c)).toBe('concurrency-bound: 128/s of 1000/s asked; use rate.concurrency auto');
  });

  it('says nothing when the fixed number covers the rate, or before any answer', () => {
    expect(concurrencyBoundNow(measured({ rate: { per_second: 100, concurrency: 64 } }, 500))).toBeUndefined();
    expect(concurrencyBoundNow(runConcurrency(testJob({ rate: { per_second: 1000, concurrency: 4 } }).rate, () => 0))).toBeUndefined();
  });

  it('under "auto", speaks only once the limit meets max_concurrency, and names that setting', () => {
    const c = measured({ rate: { per_second: 1000, max_concurrency: 50 } }, 1000);
    expect(c.controller.limit()).toBe(50);
    expect(concurrencyBoundNow(c)).toBe('concurrency-bound: 50/s of 1000/s asked; raise rate.max_concurrency (now 50)');
    expect(concurrencyBoundNow(measured({ rate: { per_second: 100 } }, 500))).toBeUndefined();
  });

  it('is worked out at most twice a second, and kept once the answer times have left the window', () => {
    let now = 0;
    const c = runConcurrency(testJob({ rate: { per_second: 1000, concurrency: 10 } }).rate, () => now);
    const watch = boundWatch(c, () => now);
    expect(watch()).toBeUndefined();
    for (let i = 0; i < 20; i++) c.controller.observe({ latencyMs: 100, kind: 'ok' });
    expect(watch()).toBeUndefined(); // asked again too soon
    now = 600;
    expect(watch()).toMatch(/^concurrency-bound: 100\/s of 1000\/s asked/);
    now = 60_000;
    expect(watch()).toMatch(/^concurrency-bound: 100\/s/);
  });
});
