import { describe, expect, it } from 'vitest';
import { decide, nextOpening, recipientZone, type PlanContext } from '../../src/plan/index.js';
import { HOUR, makeContact, makeJob, TEMPLATE, TEXT, WBA } from './fixtures.js';

/** Monday 2026-03-02 12:00 UTC: 09:00 in São Paulo (UTC−3), 21:00 in Tokyo (UTC+9). */
const MONDAY_NOON_UTC = Date.UTC(2026, 2, 2, 12, 0, 0);
const WINDOW = { from: '10:00', to: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'], default_timezone: 'America/Sao_Paulo' };

const template = makeJob({ template: TEMPLATE });
const context = (extra: Partial<PlanContext> = {}): PlanContext => ({ now: MONDAY_NOON_UTC, ...extra });

describe('gates: suppression and consent', () => {
  it('skips a suppressed phone before anything else, whatever the job', () => {
    expect(decide(makeContact(), WBA, template, context({ suppressed: { reason: 'replied STOP', source: 'reply_keyword' } }))).toEqual({ kind: 'skip', reason: 'suppressed' });
  });

  it('with require_opt_in, skips a contact not known to have opted in, and lets a clear yes through', () => {
    const job = makeJob({ template: TEMPLATE }, { columns: { opt_in: 'consent' }, require_opt_in: true });
    expect(decide(makeContact(), WBA, job, context())).toEqual({ kind: 'skip', reason: 'no_opt_in' });
    expect(decide(makeContact(), WBA, job, context({ optedIn: false }))).toEqual({ kind: 'skip', reason: 'no_opt_in' });
    expect(decide(makeContact(), WBA, job, context({ optedIn: true })).kind).toBe('template');
    expect(decide(makeContact(), WBA, template, context()).kind).toBe('template');
  });
});

describe('gates: the messaging limit and the frequency cap', () => {
  const limited = makeJob({ template: TEMPLATE, text: TEXT }, { limits: { daily_unique_recipients: 2, min_hours_between_messages: 72 } });

  it('defers a contact outside the window when there is no room, until room frees', () => {
    const full = { room: 0, freesAt: MONDAY_NOON_UTC + 5 * HOUR, counted: false };
    expect(decide(makeContact(), WBA, limited, context({ budget: full }))).toEqual({ kind: 'defer', reason: 'daily_limit', notBefore: MONDAY_NOON_UTC + 5 * HOUR });
    expect(decide(makeContact(), WBA, limited, context({ budget: { ...full, counted: true } })).kind).toBe('template');
    expect(decide(makeContact(), WBA, limited, context({ budget: { ...full, room: 1 } })).kind).toBe('template');
  });

  it('lets a contact inside the 24-hour window through without room: it is not business-initiated', () => {
    const contact = makeContact(undefined, MONDAY_NOON_UTC - HOUR);
    expect(decide(contact, WBA, limited, context({ budget: { room: 0, freesAt: MONDAY_NOON_UTC + HOUR, counted: false } })).kind).toBe('text');
  });

  it('defers a contact another job messaged less than min_hours_between_messages ago', () => {
    const last = MONDAY_NOON_UTC - 10 * HOUR;
    expect(decide(makeContact(), WBA, limited, context({ lastMessagedAt: last }))).toEqual({ kind: 'defer', reason: 'recently_messaged', notBefore: last + 72 * HOUR });
    expect(decide(makeContact(), WBA, limited, context({ lastMessagedAt: MONDAY_NOON_UTC - 73 * HOUR })).kind).toBe('template');
  });
});

describe('gates: quiet hours in the recipient zone', () => {
  const job = makeJob({ template: TEMPLATE }, { columns: { timezone: 'tz' }, send_window: WINDOW });

  it('defers a contact whose local time is before the window to its opening, and sends one inside it', () => {
    const paulista = { ...makeContact(), timezone: 'America/Sao_Paulo' };
    expect(decide(paulista, WBA, job, context())).toEqual({ kind: 'defer', reason: 'quiet_hours', notBefore: Date.UTC(2026, 2, 2, 13), zone: 'America/Sao_Paulo' });
    const lisboeta = { ...makeContact(), timezone: 'Europe/Lisbon' };
    expect(decide(lisboeta, WBA, job, context()).kind).toBe('template');
  });

  it('after the window closes, or on a day not listed, waits for the next listed day', () => {
    const tokyo = { ...makeContact(), timezone: 'Asia/Tokyo' };
    // 21:00 Monday in Tokyo → Tuesday 10:00 Tokyo = Tuesday 01:00 UTC.
    expect(decide(tokyo, WBA, job, context())).toMatchObject({ kind: 'defer', notBefore: Date.UTC(2026, 2, 3, 1) });
    // Friday 21:00 in Tokyo → Monday 10:00.
    const friday = Date.UTC(2026, 2, 6, 12);
    expect(nextOpening(friday, WINDOW as never, 'Asia/Tokyo')).toBe(Date.UTC(2026, 2, 9, 1));
  });

  it('follows daylight saving time: 10:00 in New York is 15:00 UTC before the change and 14:00 after', () => {
    const window = { from: '10:00', to: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] } as never;
    expect(nextOpening(Date.UTC(2026, 2, 7, 12), window, 'America/New_York')).toBe(Date.UTC(2026, 2, 7, 15));
    expect(nextOpening(Date.UTC(2026, 2, 9, 12), window, 'America/New_York')).toBe(Date.UTC(2026, 2, 9, 14));
  });

  it('takes the zone from the column, else the zone of the number, else the default', () => {
    const window = { timezone: 'recipient', default_timezone: 'America/Sao_Paulo' } as const;
    expect(recipientZone({ timezone: 'Asia/Tokyo' }, window, 'America/Manaus')).toEqual({ zone: 'Asia/Tokyo', source: 'column' });
    expect(recipientZone({}, window, 'America/Manaus')).toEqual({ zone: 'America/Manaus', source: 'number' });
    expect(recipientZone({}, window)).toEqual({ zone: 'America/Sao_Paulo', source: 'default' });
    expect(recipientZone({ timezone: 'Asia/Tokyo' }, { timezone: 'Europe/Madrid' }, 'America/Manaus')).toEqual({ zone: 'Europe/Madrid', source: 'job' });
  });
});
