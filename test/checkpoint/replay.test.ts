import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JournalVersionError, NO_ANSWER, readJournal, replay, type CheckpointEvent, type ContactState } from '../../src/checkpoint/file/index.js';
import { AT, attempt, failed, phoneOf, sent, tempDir } from './helpers.js';

const P = phoneOf(1);
const header: CheckpointEvent = { t: 'header', v: 1, job: 'promo', fingerprint: 'abc', content: { template: 'hello' }, at: AT };

function toFile(events: CheckpointEvent[]): string {
  return events.map((e) => JSON.stringify(e) + '\n').join('');
}

describe('replay', () => {
  it('replays an attempt without an outcome as in doubt', () => {
    const state = replay([attempt(P, { line: 7, conversation_id: 'conv-9', via: 'template' })]).get(P);
    expect(state).toEqual({
      phone: P,
      status: 'in_doubt',
      attempts: 1,
      line: 7,
      via: 'template',
      action: 'template',
      conversationId: 'conv-9',
      error: NO_ANSWER,
      attemptAt: AT,
      followups: {},
      updatedAt: AT,
    });
    expect(NO_ANSWER).toBe('no answer recorded (the run stopped while the request was in flight)');
  });

  it('records a sent contact with its ids and the time it was sent', () => {
    const state = replay([attempt(P), sent(P, 1, { media_left_out: true, at: '2025-01-01T00:00:01.000Z' })]).get(P);
    expect(state).toMatchObject({
      status: 'sent',
      attempts: 1,
      conversationId: 'conv-1',
      clientId: 'client-1',
      messageId: 'msg-1',
      mediaLeftOut: true,
      sentAt: '2025-01-01T00:00:01.000Z',
    });
    expect(loose(state)?.error).toBeUndefined();
  });

  it('keeps the ids of a failed 502 through a later retry attempt and its own failure', () => {
    const state = replay([
      attempt(P),
      failed(P, { status: 502, retryable: true, conversation_id: 'conv-5', client_id: 'client-5', error: 'bad gateway' }),
      attempt(P, { via: 'template', conversation_id: 'conv-5' }),
      failed(P, { via: 'template', status: 0, retryable: true, error: 'timeout' }),
    ]).get(P);
    expect(state).toMatchObject({
      status: 'failed',
      attempts: 2,
      via: 'template',
      conversationId: 'conv-5',
      clientId: 'client-5',
      httpStatus: 0,
      retryable: true,
      error: 'timeout',
    });
  });

  it('keeps ids known from a failed event when the retry is left in doubt', () => {
    const state = replay([
      attempt(P),
      failed(P, { status: 502, retryable: true, conversation_id: 'conv-5', client_id: 'client-5' }),
      attempt(P, { via: 'template' }),
    ]).get(P);
    expect(state).toMatchObject({ status: 'in_doubt', attempts: 2, conversationId: 'conv-5', clientId: 'client-5', error: NO_ANSWER });
    expect(loose(state)?.httpStatus).toBeUndefined();
    expect(loose(state)?.retryable).toBeUndefined();
  });

  it('treats sent as terminal: later failures, doubts, skips and attempts do not un-send', () => {
    const state = replay([
      attempt(P),
      sent(P, 1),
      failed(P, { conversation_id: 'other', client_id: 'other' }),
      { t: 'in_doubt', phone: P, via: 'start', action: 'text', error: 'x', at: AT },
      { t: 'skipped', phone: P, reason: 'opted_out', at: AT },
      attempt(P, { conversation_id: 'other' }),
      sent(P, 2),
    ]).get(P);
    expect(state).toMatchObject({
      status: 'sent',
      action: 'template',
      conversationId: 'conv-1',
      clientId: 'client-1',
      messageId: 'msg-1',
      attempts: 2,
    });
    expect(loose(state)?.error).toBeUndefined();
  });

  it('records an in_doubt outcome with its error and ids', () => {
    const state = replay([
      attempt(P),
      { t: 'in_doubt', phone: P, via: 'start', action: 'text', client_id: 'client-3', error: 'socket hang up', at: AT },
    ]).get(P);
    expect(state).toMatchObject({ status: 'in_doubt', action: 'text', clientId: 'client-3', error: 'socket hang up' });
  });

  it('records a skip with its reason and line', () => {
    const state = replay([{ t: 'skipped', phone: P, reason: 'outside_window', line: 12, at: AT }]).get(P);
    expect(state).toEqual({ phone: P, status: 'skipped', attempts: 0, reason: 'outside_window', line: 12, followups: {}, updatedAt: AT });
  });

  it('lets a skip replace a failure but not cover a contact in doubt', () => {
    const skip: CheckpointEvent = { t: 'skipped', phone: P, reason: 'outside_window', at: AT };
    expect(replay([attempt(P), failed(P), skip]).get(P)).toMatchObject({ status: 'skipped', reason: 'outside_window', attempts: 1 });
    expect(replay([attempt(P), skip]).get(P)).toMatchObject({ status: 'in_doubt', error: NO_ANSWER });
  });

  it('records follow-ups, a done step staying done, and the error of a step not done', () => {
    const state = replay([
      attempt(P),
      sent(P),
      { t: 'followup', phone: P, step: 'media', ok: false, error: 'upload failed', at: AT },
      { t: 'followup', phone: P, step: 'tag:vip', ok: true, at: AT },
      { t: 'followup', phone: P, step: 'tag:vip', ok: false, error: 'late', at: AT },
    ]).get(P);
    expect(state?.followups).toEqual({ media: false, 'tag:vip': true });
    expect(state?.followupErrors).toEqual({ media: 'upload failed' });

    const later = replay([
      sent(P),
      { t: 'followup', phone: P, step: 'media', ok: false, error: 'upload failed', at: AT },
      { t: 'followup', phone: P, step: 'media', ok: true, at: AT },
    ]).get(P);
    expect(later?.followups).toEqual({ media: true });
    expect(later?.followupErrors).toBeUndefined();
  });

  it('counts attempts and keeps updatedAt as the time of the last event', () => {
    const state = replay([
      attempt(P, { at: '2025-01-01T00:00:00.000Z' }),
      failed(P, { status: 429, retryable: true, at: '2025-01-01T00:00:01.000Z' }),
      attempt(P, { at: '2025-01-01T00:00:02.000Z' }),
      sent(P, 1, { at: '2025-01-01T00:00:03.000Z' }),
    ]).get(P);
    expect(state).toMatchObject({ attempts: 2, status: 'sent', updatedAt: '2025-01-01T00:00:03.000Z' });
  });

  it('ignores the header and does not share state between calls', () => {
    const events = [header, attempt(P)];
    const a = replay(events);
    const b = replay(events);
    expect(a.size).toBe(1);
    expect(a.get(P)).not.toBe(b.get(P));
  });
});

describe('readJournal', () => {
  it('reads the header apart from the events, in file order', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    await writeFile(file, toFile([header, attempt(P), sent(P)]));
    const read = await readJournal(file);
    expect(read.header).toEqual(header);
    expect(read.events.map((e) => e.t)).toEqual(['attempt', 'sent']);
    expect(read.tornLines).toBe(0);
  });

  it('reads a missing journal as an empty one', async () => {
    const read = await readJournal(path.join(await tempDir(), 'none.jsonl'));
    expect(read).toEqual({ events: [], tornLines: 0, tornLineNumbers: [] });
  });

  it('ignores a torn last line (half a JSON line at the end) and counts it', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const full = toFile([header, attempt(P), sent(P)]);
    // Cut the file in the middle of the `sent` line, as a power cut would.
    await writeFile(file, full.slice(0, full.length - 20));
    const read = await readJournal(file);
    expect(read.tornLines).toBe(1);
    expect(read.tornLineNumbers).toEqual([3]);
    expect(replay(read.events).get(P)).toMatchObject({ status: 'in_doubt', attempts: 1 });
  });

  it('skips and counts a corrupt line in the middle, keeping the lines after it', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    await writeFile(file, toFile([attempt(P)]) + '{"t":"sent","pho\n' + '[1,2]\n' + '{"t":"nope","phone":"+1","at":"x"}\n' + toFile([sent(P)]));
    const read = await readJournal(file);
    expect(read.tornLines).toBe(3);
    expect(read.tornLineNumbers).toEqual([2, 3, 4]);
    expect(replay(read.events).get(P)?.status).toBe('sent');
  });

  it('reads a journal cut at any byte: whole lines kept, the cut one counted as torn', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const full = toFile([header, attempt(P), sent(P)]);
    const ends = [...full.matchAll(/\n/g)].map((m) => m.index);
    for (let cut = 0; cut <= full.length; cut += 1) {
      await writeFile(file, full.slice(0, cut));
      const read = await readJournal(file);
      // A line is whole once its last character is in (with or without its newline).
      const whole = ends.filter((end) => end <= cut).length;
      const lastStart = ends.filter((end) => end < cut).length > 0 ? Math.max(...ends.filter((end) => end < cut)) + 1 : 0;
      const cutInside = cut > lastStart && !ends.includes(cut);
      expect(read.events.length + (read.header ? 1 : 0)).toBe(whole);
      expect(read.tornLines).toBe(cutInside ? 1 : 0);
    }
  });

  it('keeps text with line separators and CRs inside one line', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    const error = 'platform said:\u2028line two\r\nline three';
    await writeFile(file, toFile([attempt(P), failed(P, { error })]));
    const read = await readJournal(file);
    expect(read.tornLines).toBe(0);
    expect(loose(replay(read.events).get(P))?.error).toBe(error);
  });

  it('refuses a journal written in a newer format', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    await writeFile(file, JSON.stringify({ ...header, v: 2 }) + '\n');
    await expect(readJournal(file)).rejects.toBeInstanceOf(JournalVersionError);
  });

  it('reads a journal written with CRLF line ends', async () => {
    const file = path.join(await tempDir(), 'checkpoint.jsonl');
    await writeFile(file, [attempt(P), sent(P)].map((e) => JSON.stringify(e)).join('\r\n') + '\r\n');
    await appendFile(file, '');
    const read = await readJournal(file);
    expect(read.tornLines).toBe(0);
    expect(read.events).toHaveLength(2);
  });
});

/** A state's fields whatever its status (to check that a field is absent). */
function loose(state: ContactState | undefined): Partial<Record<string, unknown>> | undefined {
  return state as Partial<Record<string, unknown>> | undefined;
}
