import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEvent } from '../../src/checkpoint/apply-event.js';
import { ColumnFold } from '../../src/checkpoint/column-fold.js';
import { loadState, readJournal } from '../../src/checkpoint/file/index.js';
import { replay } from '../../src/checkpoint/replay.js';
import { StateTable } from '../../src/checkpoint/state-table.js';
import type { StateTally } from '../../src/checkpoint/state-tally.js';
import type { CheckpointEvent, ContactEvent, ContactState } from '../../src/checkpoint/types.js';
import { seededRandom } from '../../src/sim/random.js';
import { tempDir } from './helpers.js';

/**
 * A journal with every kind of event in every shape the reducer reads (ids that are numbers and ids
 * that are not, times that are canonical and times that are not, optional fields there and absent,
 * keys that are not E.164 phones), most contacts following a run's common path (an attempt, its
 * outcome, delivery reads) with other events mixed in, the contacts' events interleaved.
 */
function journal(seed: number, phones: number): ContactEvent[] {
  const r = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const maybe = <T extends object>(p: number, x: T): T | object => (r() < p ? x : {});
  let clock = Date.parse('2026-11-21T10:00:00.000Z');
  const at = () => (r() < 0.03 ? pick(['2026-11-21T10:00:00Z', 'yesterday', '2026-11-21T10:00:00.000+00:00']) : new Date((clock += Math.floor(r() * 5000))).toISOString());
  const id = () => (r() < 0.1 ? pick(['conv-7', '007', '-1', '12345678901234567']) : String(Math.floor(r() * 1e9)));
  const via = () => pick(['start', 'template', 'message', 'start', 'start'] as const);
  const action = () => pick(['template', 'text', 'template'] as const);
  const ids = () => ({ ...maybe(0.6, { conversation_id: id() }), ...maybe(0.6, { client_id: id() }) });
  const any = (phone: string): ContactEvent => {
    switch (pick(['attempt', 'sent', 'failed', 'in_doubt', 'skipped', 'deferred', 'followup', 'delivery', 'reconciled'] as const)) {
      case 'attempt':
        return { t: 'attempt', phone, via: via(), action: action(), ...maybe(0.7, { line: Math.floor(r() * 100) }), ...maybe(0.2, { conversation_id: id() }), ...maybe(0.2, { variant: pick(['a', 'b']) }), ...maybe(0.2, { channel_id: 5 }), ...maybe(0.2, { content: { text: 'hi' } }), at: at() } as ContactEvent;
      case 'sent':
        return { t: 'sent', phone, via: via(), action: action(), conversation_id: id(), ...maybe(0.7, { client_id: id() }), message_id: id(), ...maybe(0.1, { media_left_out: r() < 0.5 }), ...maybe(0.1, { media_owed: true }), ...maybe(0.2, { variant: 'b' }), ...maybe(0.1, { channel_id: 6 }), at: at() } as ContactEvent;
      case 'failed':
        return { t: 'failed', phone, via: via(), action: action(), status: pick([0, 400, 502, 70000]), retryable: r() < 0.5, ...ids(), error: pick(['502: bad gateway', '400: nope']), ...maybe(0.3, { code: 131026 }), ...maybe(0.3, { error_class: 'undeliverable' }), at: at() } as ContactEvent;
      case 'in_doubt':
        return { t: 'in_doubt', phone, via: via(), action: action(), ...ids(), error: 'timeout', at: at() } as ContactEvent;
      case 'skipped':
        return { t: 'skipped', phone, reason: pick(['opted_out', 'duplicate']), ...maybe(0.5, { line: 3 }), at: at() } as ContactEvent;
      case 'deferred':
        return { t: 'deferred', phone, reason: pick(['quiet_hours', 'marketing_limit']), not_before: at(), ...maybe(0.5, { line: 4 }), ...maybe(0.3, { zone: 'America/Sao_Paulo' }), ...maybe(0.3, { code: 131049, error_class: 'marketing_limit' }), at: at() } as ContactEvent;
      case 'followup':
        return { t: 'followup', phone, step: pick(['tag:a', 'media']), ok: r() < 0.4, ...maybe(0.3, { attempt: true }), ...maybe(0.2, { in_doubt: true }), ...maybe(0.5, { error: '404: tag not found' }), at: at() } as ContactEvent;
      case 'delivery':
        return delivery(phone, true);
      case 'reconciled':
        return pick([
          { t: 'reconciled', phone, result: 'sent', via: via(), action: action(), conversation_id: id(), ...maybe(0.5, { client_id: id() }), message_id: id(), sent_at: at(), at: at() },
          { t: 'reconciled', phone, result: 'not_sent', ...ids(), at: at() },
          { t: 'reconciled', phone, result: 'in_doubt', reason: 'the platform did not answer', at: at() },
        ] as ContactEvent[]);
    }
  };
  const delivery = (phone: string, odd: boolean): ContactEvent =>
    ({
      t: 'delivery',
      phone,
      status: pick(['sent', 'delivered', 'read', 'failed', 'delivered', 'read'] as const),
      ...maybe(0.6, { delivered_at: at() }),
      ...maybe(0.4, { read_at: at() }),
      ...(odd ? { ...maybe(0.2, { failed_at: at() }), ...maybe(0.2, { failure_code: 131047, failure_reason: 'window closed' }) } : {}),
      at: at(),
    }) as ContactEvent;

  // Each contact's events in order; the contacts' streams then interleaved at random.
  const streams: ContactEvent[][] = [];
  for (let i = 0; i < phones; i++) {
    const phone = i % 50 === 49 ? `not-a-phone-${i}` : `+5511${String(900_000_000 + i)}`;
    const events: ContactEvent[] = [];
    const script = r();
    if (script < 0.5) {
      events.push({ t: 'attempt', phone, via: via(), action: action(), ...maybe(0.8, { line: i + 2 }), ...maybe(0.3, { content: { text: 'hi' } }), at: at() } as ContactEvent);
      if (r() < 0.7) events.push({ t: 'sent', phone, via: via(), action: action(), conversation_id: id(), ...maybe(0.9, { client_id: id() }), message_id: id(), at: at() });
      else if (r() < 0.7) events.push({ t: 'failed', phone, via: via(), action: action(), status: pick([502, 400]), retryable: r() < 0.5, ...ids(), error: '502: (#131026) Message undeliverable', at: at() });
      const reads = Math.floor(r() * 4);
      for (let k = 0; k < reads; k++) events.push(delivery(phone, r() < 0.1));
    } else if (script < 0.6) {
      events.push({ t: 'skipped', phone, reason: 'opted_out', ...maybe(0.8, { line: i + 2 }), at: at() });
    }
    const more = r() < 0.5 ? 0 : Math.floor(r() * 6);
    for (let k = 0; k < more; k++) events.push(any(phone));
    streams.push(events);
  }
  const out: ContactEvent[] = [];
  const live = streams.filter((s) => s.length > 0).map((s) => ({ s, i: 0 }));
  while (live.length > 0) {
    const k = Math.floor(r() * Math.min(live.length, 8));
    const cur = live[k];
    if (!cur) break;
    out.push(cur.s[cur.i++] as ContactEvent);
    if (cur.i === cur.s.length) live.splice(k, 1);
  }
  return out;
}

function folded(events: readonly ContactEvent[]): StateTable {
  const fold = new ColumnFold(16);
  for (const e of events) fold.apply(e);
  return fold.table();
}

function sortedTallies(t: StateTally[]): string[] {
  const sums = new Map<string, number>();
  for (const { state, count } of t) sums.set(JSON.stringify(state), (sums.get(JSON.stringify(state)) ?? 0) + count);
  return [...sums].map(([k, n]) => `${n} ${k}`).sort();
}

describe('folding a whole journal straight into columns', () => {
  for (const [seed, phones] of [
    [1, 300],
    [2, 300],
    [3, 6000],
  ] as const) {
    it(`gives every contact the state the one reducer gives, and the same counts (journal ${seed}, ${phones} contacts)`, () => {
      const events = journal(seed, phones);
      const expected = replay(events);
      const table = folded(events);
      expect(table.size).toBe(expected.size);
      const got = new Map<string, ContactState>(table);
      for (const [phone, state] of expected) expect(got.get(phone), phone).toEqual(state);
      // The same order as the reducer's map (phones in the order first seen), and the same counters.
      expect([...table.keys()].filter((k) => k.startsWith('+'))).toEqual([...expected.keys()].filter((k) => k.startsWith('+')));
      const reference = new StateTable();
      for (const [phone, state] of expected) reference.set(phone, state);
      expect(sortedTallies(table.tallies())).toEqual(sortedTallies(reference.tallies()));
    });
  }

  it('goes on like a table of the reducer: later events and a snapshot image read back the same', () => {
    const events = journal(4, 400);
    const half = Math.floor(events.length / 2);
    const table = folded(events.slice(0, half));
    for (const e of events.slice(half)) applyEvent(table, e);
    const expected = replay(events);
    expect(new Map(StateTable.fromImage(table.image()))).toEqual(expected);
  });

  it('opening a journal without a snapshot gives the states its events replay to, a torn line skipped as before', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'checkpoint.jsonl');
    const events = journal(5, 500);
    const header: CheckpointEvent = { t: 'header', v: 1, job: 'promo', fingerprint: 'abc', content: {}, at: '2026-11-21T10:00:00.000Z' };
    const lines = [header, ...events].map((e) => JSON.stringify(e));
    lines.splice(40, 0, '{"t":"sent","phone":"+55119000'); // a torn write in the middle
    await writeFile(file, `${lines.join('\n')}\n{"t":"attempt","phone":"+5511`); // and a torn last line
    const loaded = await loadState(file);
    expect(loaded.tornLineNumbers).toEqual([41, lines.length + 1]);
    expect(loaded.header).toEqual(header);
    expect(loaded.position.events).toBe(events.length);
    const contents = await readJournal(file);
    expect(new Map(loaded.state)).toEqual(replay(contents.events));
  });
});
