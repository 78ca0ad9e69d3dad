import { describe, expect, it } from 'vitest';
import { earlierOutcome, selectFollowUp } from '../../src/app/index.js';
import type { ContactState, SentState } from '../../src/checkpoint/index.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-28T12:00:00.000Z');

function sentState(phone: string, hoursAgo: number, delivery?: SentState['delivery']): SentState {
  return {
    phone,
    status: 'sent',
    attempts: 1,
    followups: {},
    via: 'start',
    action: 'template',
    conversationId: `c-${phone}`,
    messageId: '1',
    sentAt: new Date(NOW - hoursAgo * HOUR).toISOString(),
    ...(delivery && { delivery }),
  };
}

function failedState(phone: string, retryable: boolean, errorClass?: string): ContactState {
  return { phone, status: 'failed', attempts: 1, followups: {}, via: 'start', action: 'template', httpStatus: 502, retryable, error: 'x', ...(errorClass && { errorClass }), updatedAt: new Date(NOW - 72 * HOUR).toISOString() };
}

describe('what became of an earlier job\'s contact', () => {
  it('tells each outcome apart: a reply first, then what track read; failures that may pass from those that never do', () => {
    expect(earlierOutcome(sentState('+1', 50, { status: 'read' }), '2026-11-27T00:00:00Z')).toBe('replied');
    expect(earlierOutcome(sentState('+1', 50, { status: 'read' }), undefined)).toBe('read_not_replied');
    expect(earlierOutcome(sentState('+1', 50, { status: 'delivered' }), undefined)).toBe('delivered_not_read');
    expect(earlierOutcome(sentState('+1', 50, { status: 'sent' }), undefined)).toBe('not_delivered');
    expect(earlierOutcome(sentState('+1', 50), undefined)).toBe('not_tracked');
    expect(earlierOutcome(failedState('+1', true, 'throughput'), undefined)).toBe('failed_retryable');
    expect(earlierOutcome(failedState('+1', true, 'undeliverable'), undefined)).toBe('other');
    expect(earlierOutcome(failedState('+1', false), undefined)).toBe('other');
  });

  it('takes only contacts whose first message is at least after_hours old, and counts the younger ones', () => {
    const states = [sentState('+old', 50, { status: 'delivered' }), sentState('+young', 10, { status: 'delivered' }), sentState('+read', 50, { status: 'read' })];
    const picked = selectFollowUp(states, new Map(), { who: ['delivered_not_read'], after_hours: 48 }, NOW);
    expect([...picked.phones]).toEqual(['+old']);
    expect(picked.tooRecent).toBe(1);
    expect(picked.byOutcome).toMatchObject({ delivered_not_read: 2, read_not_replied: 1 });
    // 38 hours later the young one is old enough.
    expect([...selectFollowUp(states, new Map(), { who: ['delivered_not_read'], after_hours: 48 }, NOW + 38 * HOUR).phones]).toEqual(['+old', '+young']);
  });

  it('keeps a contact the follow-up already handled, whatever track read since', () => {
    const states = [sentState('+now-read', 50, { status: 'read' })];
    const picked = selectFollowUp(states, new Map(), { who: ['delivered_not_read'], after_hours: 0 }, NOW, ['+now-read']);
    expect([...picked.phones]).toEqual(['+now-read']);
  });
});
