import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outcomeExitCode } from '../../src/cli/exit.js';
import { formatRunEnd } from '../../src/cli/format/run.js';
import { bench, HOUR, phone, type Bench } from './helpers.js';

let b: Bench;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await b.close();
});

/** Monday 2 March 2026, 09:30 UTC: the window below opens at 12:00 UTC. */
const MONDAY_0930 = Date.UTC(2026, 2, 2, 9, 30, 0);
const DAY = 24 * HOUR;
const WINDOW = { send_window: { from: '12:00', to: '20:00', timezone: 'UTC' } };

async function windowJob() {
  return b.prepare(await b.job('daily', Array.from({ length: 3 }, (_, i) => ({ phone: phone(i, 7) })), WINDOW));
}

describe('a schedule that never runs inside the send window', () => {
  it('is told on the second day: the contacts deferred again, whose window opened and closed between the runs, with the fix, exit 1', async () => {
    const prepared = await windowJob();
    const first = await b.run(prepared, { clock: () => MONDAY_0930 });
    expect(first.thisRun).toMatchObject({ sent: 0, deferred: 3 });
    expect(first.missedWindows).toBeUndefined();
    expect(outcomeExitCode(first)).toBe(0);

    const second = await b.run(prepared, { clock: () => MONDAY_0930 + DAY });
    expect(second.thisRun).toMatchObject({ sent: 0, deferred: 3 });
    expect(second.missedWindows).toEqual({ count: 3, reason: 'quiet_hours', openedAt: new Date(Date.UTC(2026, 2, 2, 12)).toISOString(), zone: 'UTC' });
    expect(outcomeExitCode(second)).toBe(1);
    expect(b.started().size).toBe(0);
    const text = formatRunEnd(second, 'UTC', MONDAY_0930 + DAY);
    expect(text).toContain(
      '  3 deferred quiet_hours again: their window opened Mon 12:00 UTC and closed before this run; schedule the run inside the send window (every hour does) or use `run --wait`',
    );
  });

  it('says nothing when the runs come every hour: the contacts go once their window opens', async () => {
    const prepared = await windowJob();
    for (const at of [MONDAY_0930, MONDAY_0930 + HOUR, MONDAY_0930 + 2 * HOUR]) {
      const outcome = await b.run(prepared, { clock: () => at });
      expect(outcome.missedWindows).toBeUndefined();
      expect(outcome.summary.byStatus.deferred).toBe(3);
    }
    const inside = await b.run(prepared, { clock: () => MONDAY_0930 + 3 * HOUR });
    expect(inside.thisRun).toMatchObject({ sent: 3, deferred: 0 });
    expect(inside.missedWindows).toBeUndefined();
    expect(outcomeExitCode(inside)).toBe(0);
  });

  it('says nothing when a day-late run comes inside the window: it sends them', async () => {
    const prepared = await windowJob();
    await b.run(prepared, { clock: () => MONDAY_0930 });
    const next = await b.run(prepared, { clock: () => MONDAY_0930 + DAY + 3 * HOUR });
    expect(next.thisRun).toMatchObject({ sent: 3, deferred: 0 });
    expect(next.missedWindows).toBeUndefined();
  });
});
