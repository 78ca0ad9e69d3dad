import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compactJournal,
  openJournal,
  readJournal,
  replay,
  shouldCompact,
  type CheckpointEvent,
  type ContactEvent,
} from '../../src/checkpoint/file/index.js';
import { AT, attempt, failed, phoneOf, sent, tempDir } from './helpers.js';

const header: CheckpointEvent = { t: 'header', v: 1, job: 'promo', fingerprint: 'f1', content: { text: 'hi' }, at: AT };

function toFile(events: CheckpointEvent[]): string {
  return events.map((e) => JSON.stringify(e) + '\n').join('');
}

async function compacted(events: CheckpointEvent[], extra = '') {
  const file = path.join(await tempDir(), 'checkpoint.jsonl');
  await writeFile(file, toFile(events) + extra);
  const before = await readJournal(file);
  const result = await compactJournal(file);
  const after = await readJournal(file);
  return { file, before, after, result };
}

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

function randomEvents(contacts: number, perContact: number, seed: number): ContactEvent[] {
  const rnd = random(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const events: ContactEvent[] = [];
  for (let n = 0; n < contacts * perContact; n++) {
    const phone = phoneOf(Math.floor(rnd() * contacts));
    const at = new Date(Date.UTC(2025, 0, 1) + n * 1000).toISOString();
    const via = pick(['start', 'template', 'message'] as const);
    const action = pick(['template', 'text'] as const);
    const maybeIds = rnd() < 0.5 ? { conversation_id: `conv-${n}`, client_id: `client-${n}` } : {};
    switch (pick(['attempt', 'attempt', 'sent', 'failed', 'in_doubt', 'skipped', 'deferred', 'followup'] as const)) {
      case 'attempt':
        events.push({ t: 'attempt', phone, via, action, at, ...(rnd() < 0.5 && { line: n }), ...(rnd() < 0.3 && { conversation_id: `conv-${n}` }) });
        break;
      case 'sent':
        events.push({ t: 'sent', phone, via, action, conversation_id: `conv-${n}`, client_id: `client-${n}`, message_id: `msg-${n}`, ...(rnd() < 0.3 && { media_left_out: true }), at });
        break;
      case 'failed':
        events.push({
          t: 'failed',
          phone,
          via,
          action,
          status: pick([0, 400, 429, 502]),
          retryable: rnd() < 0.5,
          ...maybeIds,
          error: `error ${n % 4}`,
          ...(rnd() < 0.4 && { code: pick([131026, 131049, 131050]), error_class: pick(['undeliverable', 'marketing_limit', 'opted_out']) }),
          at,
        });
        break;
      case 'deferred':
        events.push({
          t: 'deferred',
          phone,
          reason: pick(['marketing_limit', 'marketing_limit', 'quiet_hours']),
          not_before: new Date(Date.UTC(2025, 0, 2) + n * 1000).toISOString(),
          ...(rnd() < 0.5 && { line: n }),
          ...(rnd() < 0.5 && { code: 131049, error_class: 'marketing_limit' }),
          at,
        });
        break;
      case 'in_doubt':
        events.push({ t: 'in_doubt', phone, via, action, ...maybeIds, error: 'timeout', at });
        break;
      case 'skipped':
        events.push({ t: 'skipped', phone, reason: pick(['outside_window', 'opted_out']), ...(rnd() < 0.5 && { line: n }), at });
        break;
      case 'followup':
        events.push({ t: 'followup', phone, step: pick(['media', 'tag:vip', 'custom_fields'] as const), ok: rnd() < 0.5, ...(rnd() < 0.5 && { error: 'nope' }), at });
        break;
    }
  }
  return events;
}

describe('compactJournal', () => {
  it('rewrites a journal of retries into fewer events replaying to the same state', async () => {
    const p = [phoneOf(1), phoneOf(2), phoneOf(3), phoneOf(4), phoneOf(5), phoneOf(6)];
    const events: CheckpointEvent[] = [
      header,
      // sent after a 502 and a 429, then its media follow-up failing once and succeeding
      attempt(p[0]!, { line: 2 }),
      failed(p[0]!, { status: 502, retryable: true, conversation_id: 'conv-a', client_id: 'client-a' }),
      attempt(p[0]!, { via: 'template', conversation_id: 'conv-a' }),
      failed(p[0]!, { status: 429, retryable: true }),
      attempt(p[0]!, { via: 'template', conversation_id: 'conv-a' }),
      sent(p[0]!, 1, { via: 'template', conversation_id: 'conv-a', client_id: 'client-a', at: '2025-01-01T00:00:05.000Z' }),
      { t: 'followup', phone: p[0]!, step: 'media', ok: false, error: 'upload', at: '2025-01-01T00:00:06.000Z' },
      { t: 'followup', phone: p[0]!, step: 'media', ok: true, at: '2025-01-01T00:00:07.000Z' },
      // failed for good
      attempt(p[1]!, { line: 3 }),
      failed(p[1]!, { status: 400, error: 'invalid number', client_id: 'client-b' }),
      // in flight when the run stopped
      attempt(p[2]!, { line: 4 }),
      // in doubt by its outcome
      attempt(p[3]!, { line: 5 }),
      { t: 'in_doubt', phone: p[3]!, via: 'start', action: 'text', client_id: 'client-d', error: 'socket hang up', at: AT },
      // failed, then skipped on a later run
      attempt(p[4]!, { line: 6 }),
      failed(p[4]!, { status: 502, retryable: true, conversation_id: 'conv-e', client_id: 'client-e' }),
      { t: 'skipped', phone: p[4]!, reason: 'outside_window', line: 6, at: AT },
      // only skipped
      { t: 'skipped', phone: p[5]!, reason: 'opted_out', line: 7, at: AT },
    ];
    const { before, after, result } = await compacted(events);

    expect(replay(after.events)).toStrictEqual(replay(before.events));
    expect(after.header).toEqual(header);
    expect(after.tornLines).toBe(0);
    expect(result).toMatchObject({ eventsBefore: 17, contacts: 6, keptVerbatim: 0 });
    expect(result.eventsAfter).toBe(after.events.length);
    expect(result.eventsAfter).toBeLessThan(result.eventsBefore);
  });

  it('preserves the replayed state of thousands of random event sequences', async () => {
    for (const seed of [1, 2, 3]) {
      const events = randomEvents(300, 12, seed);
      const { before, after, result } = await compacted([header, ...events]);
      expect(replay(after.events)).toStrictEqual(replay(before.events));
      expect(result.eventsAfter).toBeLessThan(result.eventsBefore);
    }
  });

  it("keeps a provider refusal's code and class and the count of marketing-limit deferrals in few events", async () => {
    const [a, b, c] = [phoneOf(1), phoneOf(2), phoneOf(3)];
    const limited = (phone: string, notBefore: string) => [
      attempt(phone),
      failed(phone, { status: 502, retryable: true, conversation_id: `conv-${phone}`, code: 131049, error_class: 'marketing_limit' }),
      { t: 'deferred', phone, reason: 'marketing_limit', not_before: notBefore, code: 131049, error_class: 'marketing_limit', at: AT } as const,
    ];
    const events: CheckpointEvent[] = [
      header,
      // deferred twice, then sent on its conversation
      ...limited(a, '2025-01-02T00:00:00.000Z'),
      ...limited(a, '2025-01-04T00:00:00.000Z'),
      attempt(a, { via: 'template', conversation_id: `conv-${a}` }),
      sent(a, 1, { via: 'template', conversation_id: `conv-${a}` }),
      // deferred three times, still deferred
      ...limited(b, '2025-01-02T00:00:00.000Z'),
      ...limited(b, '2025-01-04T00:00:00.000Z'),
      ...limited(b, '2025-01-08T00:00:00.000Z'),
      // undeliverable
      attempt(c),
      failed(c, { status: 502, conversation_id: 'conv-c', code: 131026, error_class: 'undeliverable' }),
    ];
    const { before, after, result } = await compacted(events);
    const states = replay(after.events);
    expect(states).toStrictEqual(replay(before.events));
    expect(result.keptVerbatim).toBe(0);
    expect(result.eventsAfter).toBeLessThan(result.eventsBefore);
    expect(states.get(a)).toMatchObject({ status: 'sent', marketingLimits: 2 });
    expect(states.get(b)).toMatchObject({ status: 'deferred', marketingLimits: 3, code: 131049, errorClass: 'marketing_limit', notBefore: '2025-01-08T00:00:00.000Z' });
    expect(states.get(c)).toMatchObject({ status: 'failed', code: 131026, errorClass: 'undeliverable' });
  });

  it("keeps what each contact's last request carried, which show prints as sent", async () => {
    const [a, b] = [phoneOf(1), phoneOf(2)];
    const textFirst = { text: 'Oi Ana' };
    const template = { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': 'Ana', '2': 'BF0' } } };
    const events: CheckpointEvent[] = [
      header,
      // text refused (the window had closed), then the template went on the conversation
      attempt(a, { action: 'text', content: textFirst }),
      failed(a, { status: 502, retryable: true, conversation_id: 'conv-a', client_id: 'client-a' }),
      attempt(a, { via: 'template', conversation_id: 'conv-a', content: template }),
      sent(a, 1, { via: 'template', conversation_id: 'conv-a', client_id: 'client-a' }),
      { t: 'followup', phone: a, step: 'tag:vip', ok: false, error: 'x', at: AT },
      { t: 'followup', phone: a, step: 'tag:vip', ok: true, at: AT },
      // in doubt: the request's content is what may be on the platform
      attempt(b, { content: template }),
      attempt(b, { content: template }),
    ];
    const { after, result } = await compacted(events);
    expect(result.keptVerbatim).toBe(0);
    const carried = (phone: string) => after.events.filter((e) => e.phone === phone && e.t === 'attempt' && e.content !== undefined).map((e) => e.t === 'attempt' && e.content);
    expect(carried(a)).toEqual([template]);
    expect(carried(b)).toEqual([template]);
  });

  it("keeps the number of a pool each contact's request went from: the sender of a sent one, the last try's of another", async () => {
    const [a, b] = [phoneOf(1), phoneOf(2)];
    const events: CheckpointEvent[] = [
      header,
      // refused from 14 (drained), then sent from 11
      attempt(a, { channel_id: 14 }),
      failed(a, { status: 502, retryable: true, code: 131048 }),
      attempt(a, { channel_id: 11 }),
      sent(a, 1, { channel_id: 11 }),
      // failed from 10
      attempt(b, { channel_id: 10 }),
      failed(b, { status: 502 }),
    ];
    const { before, after, result } = await compacted(events);
    const states = replay(after.events);
    expect(states).toStrictEqual(replay(before.events));
    expect(result.keptVerbatim).toBe(0);
    expect(states.get(a)).toMatchObject({ status: 'sent', channelId: 11 });
    expect(states.get(b)).toMatchObject({ status: 'failed', channelId: 10 });
  });

  it('keeps the original events of a contact no short sequence reproduces', async () => {
    const p = phoneOf(1);
    // A skip's line, then an in_doubt outcome without an attempt: unusual, kept as written.
    const events: CheckpointEvent[] = [
      { t: 'skipped', phone: p, reason: 'outside_window', line: 9, at: AT },
      { t: 'in_doubt', phone: p, via: 'start', action: 'text', error: 'x', at: AT },
    ];
    const { before, after, result } = await compacted(events);
    expect(result.keptVerbatim).toBe(1);
    expect(after.events).toEqual(before.events);
    expect(replay(after.events)).toStrictEqual(replay(before.events));
  });

  it('drops torn lines, leaves no temp file, and the journal takes appends afterwards', async () => {
    const p = phoneOf(1);
    const { file, after, result } = await compacted([attempt(p), attempt(p), sent(p)], '{"t":"fol');
    expect(result.tornLinesDropped).toBe(1);
    expect(after.tornLines).toBe(0);
    expect(await readdir(path.dirname(file))).toEqual(['checkpoint.jsonl']);

    const journal = await openJournal(file);
    await journal.append({ t: 'followup', phone: p, step: 'media', ok: true, at: AT });
    await journal.close();
    expect(replay((await readJournal(file)).events).get(p)).toMatchObject({ status: 'sent', attempts: 2, followups: { media: true } });
  });

  it('compacts a journal without a header into one without a header', async () => {
    const { after } = await compacted([attempt(phoneOf(1)), sent(phoneOf(1))]);
    expect(after.header).toBeUndefined();
  });

  it('says when a journal is worth compacting', () => {
    expect(shouldCompact(5_001, 1_000)).toBe(true);
    expect(shouldCompact(5_000, 1_000)).toBe(false);
    expect(shouldCompact(0, 0)).toBe(false);
  });
});
