import { describe, expect, it } from 'vitest';
import { NO_ANSWER, nextState } from '../../src/checkpoint/apply-event.js';
import { allocColumns, encodeRow, RestTable } from '../../src/checkpoint/state-columns.js';
import type { ContactState } from '../../src/checkpoint/types.js';

/**
 * The states a run folds for every contact, and the `rest` texts the columns keep of them, are JSON
 * whose key order reaches the snapshot's bytes: these pin the order, field by field.
 */
const P = '+5511910000001';
const T1 = '2026-11-26T08:00:00.123Z';
const T2 = '2026-11-26T08:00:00.456Z';

describe('the fold of a run keeps its key order', () => {
  it('a first attempt gives phone, attempts, followups, updatedAt, its line, conversation, variant and number, then status, via, action, error and attemptAt', () => {
    const s = nextState(undefined, { t: 'attempt', phone: P, via: 'template', action: 'template', line: 4, conversation_id: '77', variant: 'b', channel_id: 11, content: { text: 'x' }, at: T1 });
    expect(JSON.stringify(s)).toBe(
      JSON.stringify({ phone: P, attempts: 1, followups: {}, updatedAt: T1, line: 4, conversationId: '77', variant: 'b', channelId: 11, status: 'in_doubt', via: 'template', action: 'template', error: NO_ANSWER, attemptAt: T1 }),
    );
  });

  it('a sent after an attempt keeps the common fields first, then the sent ones, the client id and variant known before when the event has none', () => {
    const before: ContactState = { phone: P, attempts: 2, followups: {}, line: 4, marketingLimits: 1, channelId: 11, updatedAt: T1, status: 'failed', via: 'start', action: 'text', clientId: '5', variant: 'a', httpStatus: 502, retryable: true, error: 'bad gateway' };
    const s = nextState(before, { t: 'sent', phone: P, via: 'template', action: 'template', conversation_id: '9', message_id: '42', media_owed: true, channel_id: 12, at: T2 });
    expect(JSON.stringify(s)).toBe(
      JSON.stringify({ phone: P, attempts: 2, followups: {}, line: 4, marketingLimits: 1, channelId: 12, updatedAt: T2, status: 'sent', via: 'template', action: 'template', conversationId: '9', clientId: '5', messageId: '42', sentAt: T2, mediaOwed: true, variant: 'a' }),
    );
  });

  it('the columns keep what they cannot take in the state’s own order, and nothing for a state they take whole', () => {
    const c = allocColumns(2);
    const rest = new RestTable();
    encodeRow(c, 0, { phone: P, attempts: 1, followups: {}, updatedAt: T1, status: 'in_doubt', via: 'start', action: 'template', error: NO_ANSWER, attemptAt: T1, conversationId: 'conv-x' }, rest);
    expect(rest.texts[c.rest[0] ?? -1]).toBe(JSON.stringify({ error: NO_ANSWER, attemptAt: T1, conversationId: 'conv-x' }));
    encodeRow(c, 1, { phone: P, attempts: 1, followups: {}, updatedAt: T1, status: 'sent', via: 'start', action: 'template', conversationId: '9', clientId: '5', messageId: '42', sentAt: T2 }, rest);
    expect(c.rest[1]).toBe(0);
    expect(rest.texts[0]).toBe('{}');
  });
});
