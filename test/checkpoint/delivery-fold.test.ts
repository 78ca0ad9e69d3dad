import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactJournal, readJournal, replay, type CheckpointEvent, type ContactEvent } from '../../src/checkpoint/file/index.js';
import { AT, attempt, phoneOf, sent, tempDir } from './helpers.js';

const P = phoneOf(1);
const T = (s: number) => new Date(Date.UTC(2025, 0, 1) + s * 1000).toISOString();

function delivery(extra: Partial<Extract<ContactEvent, { t: 'delivery' }>>): ContactEvent {
  return { t: 'delivery', phone: P, status: 'sent', at: AT, ...extra };
}

describe('delivery facts in the state', () => {
  it('gives a sent contact the delivery read by track, keeping its status and ids', () => {
    const s = replay([attempt(P), sent(P), delivery({ status: 'delivered', delivered_at: T(5), at: T(6) })]).get(P);
    expect(s).toMatchObject({ status: 'sent', conversationId: 'conv-1', messageId: 'msg-1', delivery: { status: 'delivered', deliveredAt: T(5) }, updatedAt: T(6) });
  });

  it('moves delivery forward only: a late "delivered" after "read" keeps read, and a read message never fails', () => {
    const s = replay([
      sent(P),
      delivery({ status: 'delivered', delivered_at: T(5) }),
      delivery({ status: 'read', delivered_at: T(5), read_at: T(9) }),
      delivery({ status: 'delivered', delivered_at: T(5) }),
      delivery({ status: 'failed', failure_code: 131026 }),
    ]).get(P);
    expect(s).toMatchObject({ status: 'sent', delivery: { status: 'read', deliveredAt: T(5), readAt: T(9) } });
  });

  it('records a delivery failure with its provider code and reason', () => {
    const s = replay([sent(P), delivery({ status: 'failed', failed_at: T(3), failure_code: 131050, failure_reason: '(#131050) stopped' })]).get(P);
    expect(s).toMatchObject({ status: 'sent', delivery: { status: 'failed', failedAt: T(3), failureCode: 131050, failureReason: '(#131050) stopped' } });
  });

  it('ignores a delivery read for a contact that is not sent', () => {
    const s = replay([attempt(P), delivery({ status: 'read' })]).get(P);
    expect(s).toMatchObject({ status: 'in_doubt' });
    expect(s).not.toHaveProperty('delivery');
  });
});

describe('reconciled contacts in the state', () => {
  it('keeps the time of the attempt that is in doubt, through its in-doubt outcome', () => {
    const s = replay([attempt(P, { at: T(1) }), { t: 'in_doubt', phone: P, via: 'start', action: 'template', error: 'timeout', at: T(31) }]).get(P);
    expect(s).toMatchObject({ status: 'in_doubt', attemptAt: T(1), updatedAt: T(31), error: 'timeout' });
  });

  it('turns a contact in doubt into sent, source reconciled, with the ids found', () => {
    const s = replay([
      attempt(P, { at: T(1) }),
      { t: 'reconciled', phone: P, result: 'sent', via: 'start', action: 'template', conversation_id: '7', client_id: '8', message_id: '9', sent_at: T(2), at: T(60) },
    ]).get(P);
    expect(s).toEqual({
      phone: P,
      status: 'sent',
      attempts: 1,
      followups: {},
      via: 'start',
      action: 'template',
      conversationId: '7',
      clientId: '8',
      messageId: '9',
      sentAt: T(2),
      source: 'reconciled',
      updatedAt: T(60),
    });
  });

  it('turns a contact in doubt with no message into pending, keeping what it knew', () => {
    const s = replay([attempt(P, { conversation_id: '7', via: 'template' }), { t: 'reconciled', phone: P, result: 'not_sent', client_id: '8', at: T(60) }]).get(P);
    expect(s).toMatchObject({ status: 'pending', attempts: 1, conversationId: '7', clientId: '8', via: 'template' });
    expect(s).not.toHaveProperty('attemptAt');
  });

  it('keeps a contact in doubt with the reason the platform could not tell, until its next attempt', () => {
    const doubt = replay([attempt(P), { t: 'reconciled', phone: P, result: 'in_doubt', reason: 'sent 40 s ago', at: T(60) }]).get(P);
    expect(doubt).toMatchObject({ status: 'in_doubt', unresolved: 'sent 40 s ago', error: expect.stringContaining('no answer') });
    const retried = replay([attempt(P), { t: 'reconciled', phone: P, result: 'in_doubt', reason: 'x', at: T(60) }, attempt(P, { at: T(70) })]).get(P);
    expect(retried).not.toHaveProperty('unresolved');
  });

  it('leaves a sent or failed contact as it is when reconcile says not_sent or in_doubt', () => {
    expect(replay([sent(P), { t: 'reconciled', phone: P, result: 'not_sent', at: T(60) }]).get(P)).toMatchObject({ status: 'sent' });
    const failed: ContactEvent = { t: 'failed', phone: P, via: 'start', action: 'template', status: 400, retryable: false, error: 'bad', at: AT };
    expect(replay([failed, { t: 'reconciled', phone: P, result: 'in_doubt', reason: 'x', at: T(60) }]).get(P)).toMatchObject({ status: 'failed', error: 'bad' });
  });
});

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

/** Random journals of runs, track reads and reconciles, as the program writes them (a read for sent contacts, a reconcile for those in doubt). */
function randomEvents(contacts: number, perContact: number, seed: number): ContactEvent[] {
  const rnd = random(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const events: ContactEvent[] = [];
  const status = new Map<string, string>();
  for (let n = 0; n < contacts * perContact; n++) {
    const phone = phoneOf(Math.floor(rnd() * contacts));
    const now = status.get(phone);
    const kinds =
      now === 'sent'
        ? (['attempt', 'delivery', 'delivery', 'followup'] as const)
        : now === 'in_doubt'
          ? (['sent', 'in_doubt', 'reconciled', 'reconciled'] as const)
          : (['attempt'] as const);
    const at = T(n);
    const via = pick(['start', 'template', 'message'] as const);
    const action = pick(['template', 'text'] as const);
    switch (pick<string>(kinds)) {
      case 'attempt':
        events.push({ t: 'attempt', phone, via, action, at, ...(rnd() < 0.3 && { conversation_id: `c${n}` }) });
        if (now !== 'sent') status.set(phone, 'in_doubt');
        break;
      case 'sent':
        events.push({ t: 'sent', phone, via, action, conversation_id: `c${n}`, client_id: `k${n}`, message_id: `${n}`, at });
        status.set(phone, 'sent');
        break;
      case 'in_doubt':
        events.push({ t: 'in_doubt', phone, via, action, error: 'timeout', at });
        break;
      case 'delivery': {
        const status = pick(['sent', 'delivered', 'read', 'failed'] as const);
        events.push({
          t: 'delivery',
          phone,
          status,
          ...(status !== 'sent' && status !== 'failed' && { delivered_at: at }),
          ...(status === 'read' && { read_at: at }),
          ...(status === 'failed' && { failed_at: at, failure_code: 131026, failure_reason: '(#131026) x' }),
          at,
        });
        break;
      }
      case 'reconciled':
        switch (pick(['sent', 'not_sent', 'in_doubt'] as const)) {
          case 'sent':
            events.push({ t: 'reconciled', phone, result: 'sent', via, action, conversation_id: `c${n}`, message_id: `${n}`, sent_at: at, at });
            status.set(phone, 'sent');
            break;
          case 'not_sent':
            events.push({ t: 'reconciled', phone, result: 'not_sent', ...(rnd() < 0.5 && { conversation_id: `c${n}` }), at });
            status.set(phone, 'pending');
            break;
          case 'in_doubt':
            events.push({ t: 'reconciled', phone, result: 'in_doubt', reason: `r${n % 3}`, at });
            break;
        }
        break;
      case 'followup':
        events.push({ t: 'followup', phone, step: 'media', ok: rnd() < 0.5, at });
        break;
    }
  }
  return events;
}

describe('compaction with delivery and reconcile events', () => {
  it('replays to the same state after compacting random journals of runs, tracks and reconciles', async () => {
    for (const seed of [7, 8, 9]) {
      const events: CheckpointEvent[] = randomEvents(200, 12, seed);
      const file = path.join(await tempDir(), 'checkpoint.jsonl');
      await writeFile(file, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
      const before = await readJournal(file);
      expect(before.tornLines).toBe(0);
      const result = await compactJournal(file);
      const after = await readJournal(file);
      expect(replay(after.events)).toStrictEqual(replay(before.events));
      expect(result.eventsAfter).toBeLessThan(result.eventsBefore);
      expect(result.keptVerbatim).toBe(0);
    }
  });
});
