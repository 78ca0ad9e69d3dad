import { describe, expect, it, afterEach } from 'vitest';
import { nextStep } from '../../src/app/index.js';
import { rateLimitPer } from '../../src/app/report/output.js';
import { bucketName, timeBuckets } from '../../src/app/report/time-buckets.js';
import type { ContactState } from '../../src/checkpoint/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

let sim: RunningSimulator | undefined;
let c: Campaign | undefined;
afterEach(async () => {
  await sim?.close();
  await c?.cleanup();
  sim = undefined;
  c = undefined;
});

const s = (extra: Record<string, unknown>) => ({ phone: '+1', attempts: 1, followups: {}, ...extra }) as ContactState;

describe('what resume would do next', () => {
  it('says it for every state', () => {
    expect(nextStep(undefined, true)).toBe('send it with start-whatsapp (a first message)');
    expect(nextStep(s({ status: 'pending', conversationId: '9' }), true)).toBe('send it on its conversation 9');
    expect(nextStep(s({ status: 'failed', retryable: true, conversationId: '9', error: 'x' }), true)).toBe('send it again on its conversation 9');
    expect(nextStep(s({ status: 'failed', retryable: false, error: '422: bad phone' }), true)).toBe('nothing: the failure is not retried (422: bad phone)');
    expect(nextStep(s({ status: 'in_doubt', error: 'x' }), true)).toMatch(/^nothing: it is in doubt; `outreach reconcile`/);
    expect(nextStep(s({ status: 'deferred', reason: 'quiet_hours', notBefore: '2026-01-01T08:00:00.000Z' }), true)).toBe(
      'send it with start-whatsapp (a first message) from 2026-01-01T08:00:00.000Z on (deferred: quiet_hours)',
    );
    expect(nextStep(s({ status: 'skipped', reason: 'outside_24h_window' }), true)).toBe('decide it again: skipped (outside_24h_window) until its cause is gone, then sent with start-whatsapp (a first message)');
    expect(nextStep(s({ status: 'sent', followups: { media: true } }), true)).toBe('nothing: it was sent');
    expect(nextStep(s({ status: 'sent', followups: { media: false, 'tag:vip': false }, followupsInDoubt: { media: true } }), true)).toBe('repeat the after-send steps not done: tag:vip');
    expect(nextStep(s({ status: 'sent', followups: { media: false }, followupsInDoubt: { media: true } }), true)).toMatch(/in doubt \(resume --retry-in-doubt repeats them\)/);
    expect(nextStep(s({ status: 'pending' }), false)).toBe('nothing: the phone is no longer in the contact list');
  });
});

describe('outreach show', () => {
  it('tells the story of a failed contact and of one never reached, and refuses a phone it does not know', async () => {
    sim = await startSimulator({ seed: 2, faults: { wwDown: true } });
    c = await campaign({ rows: 2, job: { channel_id: 12, message: { text: 'Oi {{name}}' }, retry: { attempts: 0, backoff_ms: 1 } } });
    const env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
    const never = await cli(['show', c.jobFile, c.phones[0]!], env);
    expect(never.code).toBe(0);
    expect(never.stdout).toMatch(/status {4}never sent \(pending\)/);
    expect(never.stdout).toContain('text      "Oi Ana 0"');
    expect(never.stdout).toMatch(/next {6}send it with start-whatsapp/);

    expect((await cli(['run', c.jobFile, '--no-progress'], env)).code).toBe(1);
    const failed = await cli(['show', c.jobFile, c.phones[1]!], env);
    expect(failed.stdout).toMatch(/status {4}failed \(HTTP 502, retryable\)/);
    expect(failed.stdout).toMatch(/← failed \(HTTP 502, retryable\)/);
    expect(failed.stdout).toMatch(/next {6}send it again on its conversation \d+/);

    const unknown = await cli(['show', c.jobFile, '+5511912345678'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/\+5511912345678 is neither in the contact list of job "cli-test" nor in its state/);
    const bad = await cli(['show', c.jobFile, '12'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"12" is not a phone number this job can read/);
  });
});

describe('outreach show of an opted-out person', () => {
  it('says the phone is suppressed, since when and why, and that nothing will message it again', async () => {
    sim = await startSimulator({ seed: 2 });
    c = await campaign({ rows: 2 });
    const env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
    expect((await cli(['run', c.jobFile, '--no-progress'], env)).code).toBe(0);
    expect((await cli(['suppress', 'add', c.phones[0]!, '--reason', 'replied PARAR'], env)).code).toBe(0);
    const shown = await cli(['show', c.jobFile, c.phones[0]!, '--tz', 'UTC'], env);
    expect(shown.stdout).toMatch(/^suppressed since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: manual, replied PARAR$/m);
    expect(shown.stdout).toMatch(/^next {6}nothing more: it was sent before, and the phone is on the suppression list \(manual: replied PARAR\), so no job of the store messages it again$/m);
    expect(shown.stdout).not.toContain('nothing: it was sent\n');
    const never = await cli(['show', c.jobFile, c.phones[1]!], env);
    expect(never.stdout).toMatch(/^next {6}nothing: it was sent$/m);
  });
});

describe('chart buckets', () => {
  it('picks the smallest bucket that keeps the chart short, empty buckets included', () => {
    const t0 = Date.parse('2026-01-01T10:00:00.000Z');
    expect(timeBuckets([t0, t0 + 500, t0 + 2_500])).toEqual({
      bucketSeconds: 1,
      buckets: [
        { start: '2026-01-01T10:00:00.000Z', count: 2 },
        { start: '2026-01-01T10:00:01.000Z', count: 0 },
        { start: '2026-01-01T10:00:02.000Z', count: 1 },
      ],
    });
    expect(timeBuckets([t0, t0 + 3 * 3_600_000]).bucketSeconds).toBe(120);
    expect(timeBuckets([t0], { minSeconds: 3600 }).buckets).toEqual([{ start: '2026-01-01T10:00:00.000Z', count: 1 }]);
    expect(timeBuckets([])).toEqual({ buckets: [], bucketSeconds: 1 });
    expect([1, 5, 60, 300, 3600, 7200, 86_400, 604_800, 90].map(bucketName)).toEqual(['second', '5 seconds', 'minute', '5 minutes', 'hour', '2 hours', 'day', 'week', '90 seconds']);
  });

  it("draws the job's rate per bucket: per_second, and per_minute for whole minutes", () => {
    expect(rateLimitPer({ per_second: 10 }, 1)).toBe(10);
    expect(rateLimitPer({ per_second: 10 }, 60)).toBe(600);
    expect(rateLimitPer({ per_second: 10, per_minute: 300 }, 60)).toBe(300);
    expect(rateLimitPer({ per_second: 10, per_minute: 300 }, 5)).toBe(50);
  });
});
