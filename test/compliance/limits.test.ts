import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobStatus, runUntilDone } from '../../src/app/index.js';
import { bench, byPhone, HOUR, phone, type Bench } from './helpers.js';

let b: Bench;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await b.close();
});

const T0 = Date.UTC(2026, 2, 2, 15, 0, 0);

describe('the messaging limit across the jobs of a state folder', () => {
  it('two jobs with daily_unique_recipients 30 start 30 distinct recipients between them and defer the others until room frees', async () => {
    const limits = { limits: { daily_unique_recipients: 30 } };
    const first = await b.job('first', Array.from({ length: 20 }, (_, i) => ({ phone: phone(i, 0) })), limits);
    // Five of the second job's contacts got the first job's message: messaging them again takes no room.
    const again = Array.from({ length: 5 }, (_, i) => ({ phone: phone(i, 0) }));
    const fresh = Array.from({ length: 20 }, (_, i) => ({ phone: phone(i, 1) }));
    // The frequency cap (24 hours by default) is off here: this test is about the limit's room.
    const second = await b.job('second', [...again, ...fresh], { limits: { daily_unique_recipients: 30, min_hours_between_messages: 0, repeat_message: true } });

    const a = await b.run(await b.prepare(first), { clock: () => T0 });
    expect(a.thisRun.sent).toBe(20);
    const later = T0 + 2 * HOUR;
    const prepared = await b.prepare(second);
    const outcome = await b.run(prepared, { clock: () => later });

    expect(b.started().size).toBe(30);
    expect(outcome.thisRun).toMatchObject({ sent: 15, deferred: 10 });
    expect(outcome.notDone).toBe(0);
    expect(outcome.deferred).toEqual([{ reason: 'daily_limit', count: 10, notBefore: new Date(T0 + 24 * HOUR).toISOString() }]);
    const rows = (await b.report('second')).filter((r) => r.status === 'deferred');
    expect(rows).toHaveLength(10);
    for (const r of rows) {
      expect(r.action).toBe('defer:daily_limit');
      expect(Date.parse(r.not_before ?? '')).toBe(T0 + 24 * HOUR);
    }

    const status = await jobStatus(second, { store: b.store, clock: () => later });
    expect(status.messaging).toEqual({ used: 30, limit: 30, room: 0, freesAt: new Date(T0 + 24 * HOUR).toISOString() });
    expect(status.notDone).toBe(0);

    // A day later the first job's recipients have left the rolling 24 hours: the rest go.
    const next = await b.run(prepared, { clock: () => T0 + 24 * HOUR + 60_000 });
    expect(next.thisRun).toMatchObject({ sent: 10, deferred: 0 });
    expect(b.started().size).toBe(40);
  });

  it('plan shows the contacts past the limit as deferred, without sending', async () => {
    const { planJob } = await import('../../src/app/index.js');
    const jobFile = await b.job('plan', Array.from({ length: 12 }, (_, i) => ({ phone: phone(i, 3) })), { limits: { daily_unique_recipients: 8 } });
    const plan = await planJob(await b.prepare(jobFile), { store: b.store, clock: () => T0 });
    expect(plan.byAction).toEqual({ template: 8, 'defer:daily_limit': 4 });
    expect(b.started().size).toBe(0);
  });
});

describe('the frequency cap: min_hours_between_messages', () => {
  it('defers a contact another job messaged less than that many hours ago, until then', async () => {
    const shared = phone(0, 4);
    const a = await b.job('weekly', [{ phone: shared }]);
    // Another message (the same one would be skipped already_sent: the frequency cap is for another message).
    const c = await b.job('flash', [{ phone: shared }, { phone: phone(1, 4) }], {
      limits: { min_hours_between_messages: 48 },
      message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': 'FLASH' } } },
    });
    await b.run(await b.prepare(a), { clock: () => T0 });
    const outcome = await b.run(await b.prepare(c), { clock: () => T0 + 3 * HOUR });

    expect(outcome.thisRun).toMatchObject({ sent: 1, deferred: 1 });
    const row = byPhone(await b.report('flash')).get(shared);
    expect(row).toMatchObject({ status: 'deferred', action: 'defer:recently_messaged', not_before: new Date(T0 + 48 * HOUR).toISOString() });
    // The job's own earlier message does not hold it back: a run two days later sends it.
    const later = await b.run(await b.prepare(c), { clock: () => T0 + 49 * HOUR });
    expect(later.thisRun).toMatchObject({ sent: 1, deferred: 0 });
  });
});

describe('quiet hours: send_window in the recipient zone', () => {
  const window = { send_window: { from: '10:00', to: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'], default_timezone: 'America/Sao_Paulo' }, columns: { timezone: 'tz' } };
  /** Monday 2026-03-02 12:00 UTC: 09:00 in São Paulo (closed), 13:00 in Lisbon (open). */
  const MONDAY = Date.UTC(2026, 2, 2, 12);

  it('sends only the contact whose window is open and defers the other to its next opening; a later run sends it then', async () => {
    const paulista = phone(0, 5);
    const lisboeta = phone(1, 5);
    const jobFile = await b.job('quiet', [
      { phone: paulista, tz: 'America/Sao_Paulo' },
      { phone: lisboeta, tz: 'europe/lisbon' },
    ], window);
    const prepared = await b.prepare(jobFile);
    const outcome = await b.run(prepared, { clock: () => MONDAY });

    expect([...b.started()]).toEqual([lisboeta]);
    const opens = Date.UTC(2026, 2, 2, 13);
    expect(outcome.deferred).toEqual([{ reason: 'quiet_hours', count: 1, notBefore: new Date(opens).toISOString(), zone: 'America/Sao_Paulo' }]);
    expect(byPhone(await b.report('quiet')).get(paulista)).toMatchObject({ status: 'deferred', action: 'defer:quiet_hours', not_before: new Date(opens).toISOString() });

    const again = await b.run(prepared, { clock: () => opens + 1000 });
    expect(again.thisRun.sent).toBe(1);
    expect(b.started()).toEqual(new Set([lisboeta, paulista]));
  });

  it('run --wait (runUntilDone) sleeps until the window opens and sends the deferred contacts then', async () => {
    const jobFile = await b.job('waiting', [{ phone: phone(0, 6), tz: 'America/Sao_Paulo' }, { phone: phone(1, 6), tz: 'Asia/Tokyo' }], window);
    let now = MONDAY;
    const waits: number[] = [];
    const result = await runUntilDone(await b.prepare(jobFile), {
      store: b.store,
      api: b.api,
      command: 'run',
      mode: { retryFailed: false, retryInDoubt: false },
      owner: { pid: process.pid },
      clock: () => now,
      sleep: async (ms) => {
        now += ms;
      },
      onWait: (info) => waits.push(info.until),
    });
    // São Paulo opens at 13:00 UTC on Monday; Tokyo (21:00 there now) at 01:00 UTC on Tuesday.
    expect(waits).toEqual([Date.UTC(2026, 2, 2, 13), Date.UTC(2026, 2, 3, 1)]);
    expect(result.runs).toBe(3);
    expect(result.outcome.notDone).toBe(0);
    expect(result.outcome.summary.byStatus).toMatchObject({ sent: 2, deferred: 0 });
    expect(b.started().size).toBe(2);
  });
});

describe('the queue behind the messaging limit', () => {
  it('gives each contact past the limit its own place: the k-th counted recipient frees the k-th, a day later the next round', async () => {
    const { LedgerIndex } = await import('../../src/checkpoint/index.js');
    const { Reservations } = await import('../../src/app/protection/compliance.js');
    const ledger = new LedgerIndex();
    for (let i = 0; i < 3; i++) ledger.add({ phone: phone(i, 9), at: T0 + i * 60_000, job: 'a', outsideWindow: true });
    const queue = new Reservations();
    const places = [];
    for (let i = 0; i < 7; i++) {
      const budget = queue.budget(ledger, phone(i, 8), T0 + HOUR, 3);
      expect(budget.room).toBe(0);
      places.push((budget.freesAt - T0) / 60_000);
      queue.queue();
    }
    const day = 24 * 60;
    expect(places).toEqual([day, day + 1, day + 2, 2 * day, 2 * day + 1, 2 * day + 2, 3 * day]);
  });

  it('a run again before their time records nothing new for the contacts still deferred', async () => {
    const { readFile } = await import('node:fs/promises');
    const path = await import('node:path');
    const jobFile = await b.job('queue', Array.from({ length: 10 }, (_, i) => ({ phone: phone(i, 7) })), { limits: { daily_unique_recipients: 4 } });
    const prepared = await b.prepare(jobFile);
    const journal = () => readFile(path.join(b.stateDir, 'queue', 'checkpoint.jsonl'), 'utf8').then((t) => t.trim().split('\n').length);
    const first = await b.run(prepared, { clock: () => T0 });
    expect(first.thisRun).toMatchObject({ sent: 4, deferred: 6 });
    const lines = await journal();
    const again = await b.run(prepared, { clock: () => T0 + HOUR });
    // Decided again (room may have come back meanwhile), deferred again to the same times: nothing new is recorded.
    expect(again.thisRun).toMatchObject({ sent: 0, deferred: 6, alreadyDone: 4 });
    expect(again.summary.byStatus).toMatchObject({ sent: 4, deferred: 6 });
    expect(await journal()).toBe(lines);
    const rows = (await b.report('queue')).filter((r) => r.status === 'deferred').map((r) => (Date.parse(r.not_before ?? '') - T0) / HOUR);
    expect(rows).toEqual([24, 24, 24, 24, 48, 48]);
  });
});
