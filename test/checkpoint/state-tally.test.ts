import { describe, expect, it } from 'vitest';
import { digestStates } from '../../src/app/report/states-digest.js';
import { applyEvent, NO_ANSWER } from '../../src/checkpoint/apply-event.js';
import { statesOf, tallyKey, type CheckpointEvent, type ContactState } from '../../src/checkpoint/index.js';
import { StateTable } from '../../src/checkpoint/state-table.js';
import { attempt, failed, phoneOf, sent } from './helpers.js';

/** 300 contacts: sent, failed (one error holding an attempt time's text), in doubt with no answer each at its own time (120), deferred. */
function table(): StateTable {
  const t = new StateTable();
  for (let i = 0; i < 300; i++) {
    const phone = phoneOf(i);
    const at = new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();
    const events: CheckpointEvent[] = [attempt(phone, { at, ...(i % 7 === 0 && { action: 'text' as const }) })];
    if (i % 5 === 1) events.push(sent(phone, i));
    else if (i % 5 === 2) events.push(failed(phone, { error: i % 2 === 0 ? 'bad request' : '400: x,"attemptAt":"2025-01-01T00:00:00.000Z"' }));
    else if (i % 5 === 3) events.splice(0, 1, { t: 'deferred', phone, reason: 'quiet_hours', not_before: '2025-01-02T08:00:00.000Z', zone: 'America/Sao_Paulo', at });
    for (const e of events) applyEvent(t, e);
  }
  return t;
}

/** Counts by the tally of each state with its attempt time left out. */
function withoutTimes(tallies: Iterable<{ state: ContactState; count: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const { state, count } of tallies) {
    const { attemptAt: _, ...rest } = state as ContactState & { attemptAt?: string };
    const key = tallyKey(rest as ContactState);
    out.set(key, (out.get(key) ?? 0) + count);
  }
  return out;
}

describe('the counted status without the attempts\' times', () => {
  it('gives the in-doubt tallies that differ only by their attempt time as one, with the same counts', () => {
    const t = table();
    for (const states of [t, statesOf(new Map(t))]) {
      const timed = [...states.tallies()];
      const merged = [...states.tallies({ attemptTimes: false })];
      expect(timed.filter((x) => x.state.status === 'in_doubt').length).toBe(120);
      expect(merged.filter((x) => x.state.status === 'in_doubt').length).toBe(2);
      expect(merged.some((x) => 'attemptAt' in x.state)).toBe(false);
      expect(new Map(merged.map((x) => [tallyKey(x.state), x.count]))).toEqual(withoutTimes(timed));
      expect(merged.reduce((n, x) => n + x.count, 0)).toBe(300);
      // An error text that holds an attempt time's text is kept as it is.
      expect(merged.filter((x) => x.state.status === 'failed').map((x) => (x.state as { error: string }).error).sort()).toEqual(['400: x,"attemptAt":"2025-01-01T00:00:00.000Z"', 'bad request']);
    }
  });

  it('merges attempt times whatever their text (a quote or a backslash in one), and only the tally\'s own', () => {
    const doubt = (phone: string, attemptAt: string, more: Record<string, unknown> = {}) =>
      ({ phone, status: 'in_doubt', attempts: 1, followups: {}, updatedAt: '2025-01-01T00:00:00.000Z', via: 'start', action: 'template', error: NO_ANSWER, attemptAt, ...more }) as unknown as ContactState;
    const states = statesOf(
      new Map(
        [
          doubt('+1', 'x"y\\'),
          doubt('+2', '2025-01-01T00:00:00.000Z'),
          doubt('+3', '\\'),
          doubt('+4', '2025-01-01T00:00:01.000Z', { followups: { 'tag:attemptAt': false } }),
          doubt('+5', '2025-01-01T00:00:02.000Z', { followups: { 'tag:attemptAt': false } }),
        ].map((s) => [s.phone, s]),
      ),
    );
    const merged = [...states.tallies({ attemptTimes: false })];
    expect(merged.map((t) => [t.count, t.state])).toEqual([
      [3, { phone: '', status: 'in_doubt', action: 'template', error: NO_ANSWER, followups: {} }],
      [2, { phone: '', status: 'in_doubt', action: 'template', error: NO_ANSWER, followups: { 'tag:attemptAt': false } }],
    ]);
  });

  it('keeps each attempt time by default (a run in flight reads them)', () => {
    const t = table();
    expect(new Set([...t.tallies()].flatMap((x) => (x.state.status === 'in_doubt' ? [x.state.attemptAt] : []))).size).toBe(120);
  });

  it('counts status the same, byte for byte, as a read of every state (the order of the actions and errors included)', () => {
    const t = table();
    const replies = new Map<string, string>();
    const counted = digestStates(t, { pending: 5, replies });
    const read = digestStates(statesOf(new Map(t)), { pending: 5, replies }, () => undefined);
    expect(JSON.stringify(counted)).toBe(JSON.stringify(read));
  });
});
