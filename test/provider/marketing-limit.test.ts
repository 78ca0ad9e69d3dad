import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../helpers/campaign.js';
import { provided, RESUME } from './helpers.js';

const HOUR = 3_600_000;

describe('marketing_limit (131049): deferred, not_before hours ahead, doubling; never retried by the same run', () => {
  it('defers the contact 24 h after one request, and neither run nor resume sends to it before then', async () => {
    const p = await provided({ rows: 4 });
    const limited = p.phones[3]!;
    p.sim.state.forceProviderError(limited, 131049);
    const now = Date.parse('2026-11-27T12:00:00.000Z');

    const outcome = await p.run({ clock: () => now });
    expect(p.sendsTo(limited)).toHaveLength(1);
    expect(outcome.thisRun).toMatchObject({ sent: 3, deferred: 1, failed: 0 });
    expect(outcome.notDone).toBe(0);
    const state = (await p.states()).get(limited);
    expect(state).toMatchObject({ status: 'deferred', reason: 'marketing_limit', notBefore: new Date(now + 24 * HOUR).toISOString(), marketingLimits: 1 });

    // Later the same day: still deferred, nothing sent.
    await p.run({ command: 'resume', mode: RESUME, clock: () => now + 23 * HOUR });
    expect(p.sendsTo(limited)).toHaveLength(1);

    const rows = parseCsv(await readFile(outcome.files.report, 'utf8'));
    expect(rows.find((r) => r.phone === limited)).toMatchObject({
      status: 'deferred',
      action: 'defer:marketing_limit',
      not_before: new Date(now + 24 * HOUR).toISOString(),
      error_code: '131049',
      error_class: 'marketing_limit',
    });
  });

  it('sends again on the same conversation once not_before has passed, and doubles the wait when refused again', async () => {
    const p = await provided({ rows: 2, job: { retry: { attempts: 3, backoff_ms: 1, marketing_limit_hours: 2 } } });
    const limited = p.phones[0]!;
    p.sim.state.forceProviderError(limited, 131049);
    const t0 = Date.parse('2026-11-27T12:00:00.000Z');

    await p.run({ clock: () => t0 });
    expect((await p.states()).get(limited)).toMatchObject({ notBefore: new Date(t0 + 2 * HOUR).toISOString() });

    const t1 = t0 + 3 * HOUR;
    await p.run({ clock: () => t1 });
    const sends = p.sendsTo(limited);
    expect(sends).toHaveLength(2);
    expect(sends[1]!.path).toMatch(/\/chat\/conversations\/\d+\/wba-send-template$/);
    expect((await p.states()).get(limited)).toMatchObject({ status: 'deferred', notBefore: new Date(t1 + 4 * HOUR).toISOString(), marketingLimits: 2 });

    p.sim.state.clearProviderError(limited);
    await p.run({ clock: () => t1 + 5 * HOUR });
    expect(p.sendsTo(limited)).toHaveLength(3);
    expect(p.sim.state.startWhatsappCount(limited)).toBe(1);
    expect((await p.states()).get(limited)).toMatchObject({ status: 'sent', via: 'template', marketingLimits: 2 });
  });
});
