import { describe, expect, it } from 'vitest';
import { digestStates } from '../../src/app/report/states-digest.js';
import { applyEvent, NO_ANSWER } from '../../src/checkpoint/apply-event.js';
import { statesOf, tallyKey, type CheckpointEvent, type ContactState, type ContactStates } from '../../src/checkpoint/index.js';
import { decodeSnapshot, encodeSnapshot, snapshotMeta } from '../../src/checkpoint/snapshot-codec.js';
import { StateTable } from '../../src/checkpoint/state-table.js';
import { mergeAttemptTimes } from '../../src/checkpoint/state-tally.js';
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

/** An in-doubt state with no answer, attempted at `attemptAt` (none: undefined). */
function doubt(phone: string, attemptAt: string | undefined, more: Record<string, unknown> = {}): ContactState {
  return { phone, status: 'in_doubt', attempts: 1, followups: {}, updatedAt: '2025-01-01T00:00:00.000Z', via: 'start', action: 'template', error: NO_ANSWER, ...(attemptAt !== undefined && { attemptAt }), ...more } as unknown as ContactState;
}

/** Each tally's count, by its key. */
function counts(tallies: Iterable<{ state: ContactState; count: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const { state, count } of tallies) out.set(tallyKey(state), (out.get(tallyKey(state)) ?? 0) + count);
  return out;
}

/** The same states as a table (encoded: its counters kept), a table read back from its snapshot, and a plain map. */
function holders(t: StateTable): ContactStates[] {
  const data = Buffer.concat(encodeSnapshot(t.image(), undefined, {}));
  const meta = snapshotMeta(data);
  const read = meta && decodeSnapshot(data, meta);
  if (!read) throw new Error('the image did not decode');
  return [t, read.table, statesOf(new Map(t))];
}

describe('the counted status', () => {
  it('counts the in-doubt contacts with no answer under one tally whatever their attempt times, with no time in it', () => {
    for (const states of holders(table())) {
      const tallies = [...states.tallies()];
      expect(tallies.filter((x) => x.state.status === 'in_doubt').length).toBe(2);
      expect(tallies.some((x) => 'attemptAt' in x.state)).toBe(false);
      expect(counts(tallies)).toEqual(counts([...states.values()].map((state) => ({ state, count: 1 }))));
      expect(tallies.reduce((n, x) => n + x.count, 0)).toBe(300);
      // An error text that holds an attempt time's text is kept as it is.
      expect(tallies.filter((x) => x.state.status === 'failed').map((x) => (x.state as { error: string }).error).sort()).toEqual(['400: x,"attemptAt":"2025-01-01T00:00:00.000Z"', 'bad request']);
    }
  });

  it('counts status the same, byte for byte, as a read of every state (the order of the actions and errors included)', () => {
    for (const states of holders(table())) {
      const replies = new Map<string, string>();
      const counted = digestStates(states, { pending: 5, replies });
      const read = digestStates(statesOf(new Map(states)), { pending: 5, replies }, () => undefined);
      expect(JSON.stringify(counted)).toBe(JSON.stringify(read));
    }
  });

  it('while a run holds the job, tells its requests in flight from the older ones in doubt as a read of every state does, whatever the run\'s start', () => {
    const t = table();
    // Odd attempt times: none, not a time, a quote and a backslash in one; and a follow-up step named like the field.
    for (const [i, at] of [undefined, 'x"y\\', '\\', 'soon'].entries()) t.set(phoneOf(1_000 + i), doubt(phoneOf(1_000 + i), at));
    t.set(phoneOf(1_010), doubt(phoneOf(1_010), '2025-01-01T00:02:00.000Z', { followups: { 'tag:attemptAt': false } }));
    // Its rows encoded (the snapshot taken), then a few set after (not encoded yet), one of them moved out of doubt; the same on the table read back.
    const [, readBack] = holders(t);
    for (const states of [t, readBack]) {
      if (!(states instanceof StateTable)) throw new Error('not a table');
      states.set(phoneOf(2_000), doubt(phoneOf(2_000), '2025-01-01T00:03:00.000Z'));
      states.set(phoneOf(3), { ...(states.get(phoneOf(2)) as ContactState), phone: phoneOf(3) });
      states.set(phoneOf(4), doubt(phoneOf(4), '2025-01-01T00:04:00.000Z'));
    }
    const replies = new Map<string, string>();
    for (const runSince of ['2025-01-01T00:00:00.000Z', '2025-01-01T00:02:00.000Z', '2025-01-01T00:02:01.000Z', '2025-01-01T00:10:00.000Z', '2026-01-01T00:00:00.000Z', 'not a time']) {
      for (const states of [t, readBack, statesOf(new Map(t))] as ContactStates[]) {
        const counted = digestStates(states, { pending: 0, replies, runSince });
        const read = digestStates(statesOf(new Map(states)), { pending: 0, replies, runSince }, () => undefined);
        expect(JSON.stringify(counted)).toBe(JSON.stringify(read));
      }
    }
    // The run's start at one contact's attempt: it is in flight (at or after it), the one a second before is not.
    const at = digestStates(t, { replies, runSince: '2025-01-01T00:02:00.000Z' });
    const whole = digestStates(statesOf(new Map(t)), { replies }, () => undefined);
    expect((at.summary.inFlight ?? 0) + at.summary.byStatus.in_doubt).toBe(whole.summary.byStatus.in_doubt);
    expect(at.summary.inFlight).toBeGreaterThan(4);
    expect(at.summary.byStatus.in_doubt).toBeGreaterThan(0);
  });
});

describe('counters kept by a program of before (a tally per attempt time)', () => {
  const old = (s: ContactState): string => {
    const key = JSON.parse(tallyKey(s)) as Record<string, unknown>;
    const at = (s as { attemptAt?: string }).attemptAt;
    if (at === undefined) return JSON.stringify(key);
    // As tallyKey wrote them: the attempt time after the fields before it, before the follow-ups.
    const { followups, delivery, ...first } = key;
    return JSON.stringify({ ...first, attemptAt: at, ...(followups !== undefined && { followups }), ...(delivery !== undefined && { delivery }) });
  };

  it('merges them into one counter per tally, whatever the times\' text, mapping each old id to its counter', () => {
    const states = [
      doubt('+1', 'x"y\\'),
      doubt('+2', '2025-01-01T00:00:00.000Z'),
      { phone: '+3', status: 'failed', error: '400: x,"attemptAt":"2025-01-01T00:00:00.000Z"', followups: {} } as unknown as ContactState,
      doubt('+4', '\\'),
      doubt('+5', '2025-01-01T00:00:01.000Z', { followups: { 'tag:attemptAt': false } }),
      doubt('+6', '2025-01-01T00:00:02.000Z', { followups: { 'tag:attemptAt': false } }),
    ];
    const keys = ['', ...states.map(old)];
    const merged = mergeAttemptTimes(keys, [0, 1, 2, 3, 4, 5, 6]);
    expect(merged.keys).toEqual(['', tallyKey(states[0] as ContactState), tallyKey(states[2] as ContactState), tallyKey(states[4] as ContactState)]);
    expect(merged.counts).toEqual([0, 1 + 2 + 4, 3, 5 + 6]);
    expect([...(merged.ids ?? [])]).toEqual([0, 1, 1, 2, 1, 3, 3]);
  });

  it('keeps counters with no attempt time as they are (the ids the same)', () => {
    const keys = ['', tallyKey(doubt('+1', '2025-01-01T00:00:00.000Z')), '{"status":"sent","followups":{}}'];
    expect(mergeAttemptTimes(keys, [0, 3, 4])).toEqual({ keys, counts: [0, 3, 4] });
  });
});
