import { describe, expect, it } from 'vitest';
import type { ContactState } from '../../src/checkpoint/index.js';
import { formatDeferred, formatRoom } from '../../src/cli/format/deferred.js';
import { parseJob } from '../../src/job/index.js';
import { deferredGroups } from '../../src/report/index.js';

const base = { name: 'a', contacts: 'x.csv', company_id: 1, channel_id: 2, message: { text: 'hi' } };
const problems = (extra: Record<string, unknown>) => {
  const r = parseJob({ ...base, ...extra });
  return r.ok ? [] : r.problems;
};

describe('the job fields of compliance', () => {
  it('fills send_window\'s defaults and canonicalises its zones', () => {
    const r = parseJob({ ...base, send_window: { from: '09:00', to: '20:00', default_timezone: 'america/sao_paulo' }, limits: { daily_unique_recipients: 250, min_hours_between_messages: 72 } });
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect(r.job.send_window).toEqual({ from: '09:00', to: '20:00', days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], timezone: 'recipient', default_timezone: 'America/Sao_Paulo' });
    expect(r.job.limits).toMatchObject({ daily_unique_recipients: 250, min_hours_between_messages: 72 });
    expect(r.job.require_opt_in).toBe(false);
  });

  it('says what is wrong with each field and how to fix it', () => {
    expect(problems({ send_window: { from: '09:00', to: '20:00' } })).toEqual([
      'send_window.default_timezone: is missing; with "timezone": "recipient" it is the zone of contacts whose own zone is unknown, e.g. "America/Sao_Paulo" (or set the job\'s default_timezone)',
    ]);
    expect(problems({ send_window: { from: '9:00', to: '20:00', timezone: 'Mars/Base' } })).toEqual([
      'send_window.from: "9:00" is not a time of day as HH:MM (00:00 to 24:00), e.g. "09:00"',
      'send_window.timezone: "Mars/Base" is neither "recipient" nor an IANA time zone; write "recipient" or a zone such as "America/Sao_Paulo"',
    ]);
    expect(problems({ send_window: { from: '21:00', to: '20:00', timezone: 'UTC' } })).toEqual(['send_window.to: must be later than from (21:00); a window cannot cross midnight']);
    expect(problems({ send_window: { from: '09:00', to: '20:00', timezone: 'UTC', default_timezone: 'Nowhere' } })[0]).toMatch(/default_timezone: "Nowhere" is not an IANA time zone/);
    expect(problems({ send_window: { from: '09:00', to: '20:00', timezone: 'UTC', days: [] } })[0]).toMatch(/days: must name at least one day/);
    expect(problems({ require_opt_in: true })).toEqual(['require_opt_in: needs the column holding each contact\'s consent, and the job names none; set columns.opt_in to its header']);
    expect(problems({ limits: { daily_unique_recipients: 0, min_hours_between_messages: -1 } })).toEqual([
      'limits.daily_unique_recipients: must be a whole number of at least 1, e.g. 250',
      'limits.min_hours_between_messages: must be a number of hours from 0 (off) to 8760, e.g. 24',
    ]);
  });

  it('holds back contacts other jobs messaged in the last 24 hours unless the job says otherwise; 0 turns it off', () => {
    const byDefault = parseJob(base);
    const off = parseJob({ ...base, limits: { min_hours_between_messages: 0 } });
    if (!byDefault.ok || !off.ok) throw new Error('a valid job was refused');
    expect(byDefault.job.limits.min_hours_between_messages).toBe(24);
    expect(off.job.limits.min_hours_between_messages).toBe(0);
  });
});

describe('saying what is deferred and the room left', () => {
  const NOW = Date.UTC(2026, 2, 2, 12);
  const deferred = (phone: string, reason: string, notBefore: number, zone?: string): ContactState => ({
    phone,
    status: 'deferred',
    attempts: 0,
    followups: {},
    reason,
    notBefore: new Date(notBefore).toISOString(),
    ...(zone !== undefined && { zone }),
  });

  it('groups by reason, the earliest not_before of each with its zone, and says it in one line', () => {
    const groups = deferredGroups([
      deferred('+1', 'quiet_hours', NOW + 3 * 3_600_000, 'America/Sao_Paulo'),
      deferred('+2', 'quiet_hours', NOW + 3_600_000, 'America/Sao_Paulo'),
      deferred('+3', 'daily_limit', NOW + 2 * 86_400_000),
      deferred('+4', 'quiet_hours', NOW + 2 * 3_600_000, 'Asia/Tokyo'),
      { phone: '+5', status: 'pending', attempts: 0, followups: {} },
    ]);
    expect(groups).toEqual([
      { reason: 'quiet_hours', count: 3, notBefore: new Date(NOW + 3_600_000).toISOString(), zone: 'America/Sao_Paulo' },
      { reason: 'daily_limit', count: 1, notBefore: new Date(NOW + 2 * 86_400_000).toISOString() },
    ]);
    expect(formatDeferred(groups, NOW, 'Europe/Lisbon')).toMatch(/^4 deferred: quiet_hours until 10:00 America\/Sao_Paulo \(3\); daily_limit until \w{3} \d\d:\d\d Europe\/Lisbon \(1\)$/);
    expect(formatDeferred([], NOW, 'UTC')).toBeUndefined();
  });

  it('says the room left, and when it frees when there is none', () => {
    expect(formatRoom({ used: 3 }, NOW, 'UTC')).toMatch(/^messaging limit: none set \(limits.daily_unique_recipients\); 3 recipient/);
    expect(formatRoom({ used: 38, limit: 250, room: 212 }, NOW, 'UTC')).toMatch(/^messaging limit: 212 of 250 left in the rolling 24 hours \(38 recipient/);
    expect(formatRoom({ used: 30, limit: 30, room: 0, freesAt: new Date(NOW + 60_000).toISOString() }, NOW, 'Asia/Tokyo')).toMatch(/room frees at \d\d:\d\d Asia\/Tokyo$/);
  });
});
