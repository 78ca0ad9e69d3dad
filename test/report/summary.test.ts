import { describe, expect, it } from 'vitest';
import { formatDuration, formatSummary, summarise } from '../../src/report/index.js';
import { state, states } from './helpers.js';

const phone = (i: number): string => `+55119${String(i).padStart(8, '0')}`;

function job() {
  return states(
    state(phone(1), { action: 'template' }),
    state(phone(2), { action: 'template', followups: { media: true } }),
    state(phone(3), { action: 'text' }),
    state(phone(4), { status: 'failed', action: 'text', error: 'invalid number' }),
    state(phone(5), { status: 'failed', action: 'text', error: 'invalid number' }),
    state(phone(6), { status: 'failed', action: 'template', error: 'template paused' }),
    state(phone(7), { status: 'in_doubt', action: 'template', error: 'socket hang up' }),
    state(phone(8), { status: 'skipped', attempts: 0, reason: 'outside_window' }),
  );
}

describe('summarise', () => {
  it('counts contacts by status and action, and the most frequent errors', () => {
    const s = summarise(job(), { pending: 2 });
    expect(s.total).toBe(10);
    expect(s.byStatus).toEqual({ sent: 3, failed: 3, in_doubt: 1, skipped: 1, deferred: 0, pending: 2 });
    expect(s.byAction).toEqual({ template: 3, 'template+media': 1, text: 3, 'skip:outside_window': 1 });
    expect(s.topErrors).toEqual([
      { error: 'invalid number', count: 2 },
      { error: 'socket hang up', count: 1 },
      { error: 'template paused', count: 1 },
    ]);
    expect(s.durationMs).toBeUndefined();
    expect(s.replies).toBeUndefined();
  });

  it('ranks the top errors by how many contacts have them, not by their text', () => {
    const errors = ['a: rare', 'z: common', 'z: common', 'z: common', 'm: middle', 'm: middle'];
    const s = summarise(states(...errors.map((error, i) => state(phone(i), { status: 'failed', error }))));
    expect(s.topErrors).toEqual([
      { error: 'z: common', count: 3 },
      { error: 'm: middle', count: 2 },
      { error: 'a: rare', count: 1 },
    ]);
  });

  it('keeps only the five most frequent errors', () => {
    const many = states(...Array.from({ length: 7 }, (_, i) => state(phone(i), { status: 'failed', error: `e${i}` })));
    expect(summarise(many).topErrors).toHaveLength(5);
  });

  it('works out duration, rate of this run and replies among the sent', () => {
    const s = summarise(job(), {
      startedAt: '2025-01-01T00:00:00.000Z',
      finishedAt: new Date('2025-01-01T00:00:04.000Z'),
      sentThisRun: 2,
      replies: new Map([
        [phone(1), '2025-01-01T01:00:00.000Z'],
        [phone(4), '2025-01-01T01:00:00.000Z'], // failed: not counted
      ]),
    });
    expect(s.durationMs).toBe(4000);
    expect(s.ratePerSec).toBe(0.5);
    expect(s.replies).toEqual({ count: 1, rate: 1 / 3 });
  });

  it('counts an empty job as zeros', () => {
    const s = summarise(new Map(), { replies: new Map() });
    expect(s).toMatchObject({ total: 0, byStatus: { sent: 0, failed: 0, in_doubt: 0, skipped: 0, pending: 0 }, topErrors: [], replies: { count: 0, rate: 0 } });
  });
});

describe('formatSummary', () => {
  it('prints aligned lines a person can read at a glance', () => {
    const text = formatSummary(
      summarise(job(), {
        startedAt: '2025-01-01T00:00:00.000Z',
        finishedAt: '2025-01-01T00:12:03.000Z',
        sentThisRun: 3,
        pending: 12_000,
        replies: new Map([[phone(1), 'x']]),
      }),
    );
    expect(text).toBe(
      [
        'contacts    12,008',
        '  sent           3',
        '  failed         3   see report for why',
        '  in doubt       1   may have reached the platform: `outreach reconcile` checks them before any is sent again',
        '  skipped        1',
        '  pending   12,000',
        'actions     template 3, text 3, template+media 1, skip:outside_window 1',
        'time        12m 03s, 3 sent this run (0.2/min)',
        'replies     1 (33.3% of sent)',
        'top errors',
        '  2  invalid number',
        '  1  socket hang up',
        '  1  template paused',
      ].join('\n'),
    );
  });

  it('formats durations from seconds to hours', () => {
    expect(formatDuration(4_200)).toBe('4.2s');
    expect(formatDuration(723_000)).toBe('12m 03s');
    expect(formatDuration(3_723_000)).toBe('1h 02m 03s');
  });
});
