import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEventsLog, readEvents, repliesFor, type RecordedEvent } from '../../src/checkpoint/file/index.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'outreach-events-'));
  file = path.join(dir, 'events.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function event(id: string, overrides: Partial<RecordedEvent> = {}): RecordedEvent {
  return {
    message_id: id,
    conversation_id: '500',
    client_id: '70',
    direction: 'inbound',
    sender_type: 'client',
    content: 'hi',
    created_at: '2025-03-01T10:00:00.000Z',
    received_at: '2025-03-01T10:00:01.000Z',
    source: 'webhook',
    ...overrides,
  };
}

async function lines(): Promise<string[]> {
  return (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
}

describe('events log', () => {
  it('records each message id once, within a run and across reopenings', async () => {
    const log = await openEventsLog(file);
    expect(await log.record(event('1'))).toBe(true);
    expect(await log.record(event('1', { content: 'again' }))).toBe(false);
    const concurrent = await Promise.all([log.record(event('2')), log.record(event('2')), log.record(event('3'))]);
    expect(concurrent).toEqual([true, false, true]);
    await log.close();

    const again = await openEventsLog(file);
    expect(again.has('2')).toBe(true);
    expect(await again.record(event('3'))).toBe(false);
    expect(await again.record(event('4'))).toBe(true);
    await again.close();
    expect((await lines()).map((l) => (JSON.parse(l) as RecordedEvent).message_id)).toEqual(['1', '2', '3', '4']);
  });

  it('writes many concurrent records in one batch and keeps every one', async () => {
    const log = await openEventsLog(file);
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => log.record(event(String(i)))));
    await log.close();
    expect(results.every((r) => r)).toBe(true);
    expect(await lines()).toHaveLength(300);
  });

  it('skips a torn last line and never glues the next record to it', async () => {
    await writeFile(file, JSON.stringify(event('1')) + '\n' + '{"message_id":"2","conv');
    const loaded: string[] = [];
    const log = await openEventsLog(file, { onLoad: (e) => loaded.push(e.message_id) });
    expect(loaded).toEqual(['1']);
    expect(await log.record(event('2'))).toBe(true);
    await log.close();
    const ids: string[] = [];
    for await (const e of readEvents(file)) ids.push(e.message_id);
    expect(ids).toEqual(['1', '2']);
  });

  it('sees what another writer appended since it opened (no second copy)', async () => {
    const log = await openEventsLog(file);
    await log.record(event('1'));
    await appendFile(file, JSON.stringify(event('9', { source: 'sync' })) + '\n');
    expect(await log.record(event('9'))).toBe(false);
    await log.close();
    expect(await lines()).toHaveLength(2);
  });

  it('reads nothing from a missing file', async () => {
    const all: RecordedEvent[] = [];
    for await (const e of readEvents(path.join(dir, 'none.jsonl'))) all.push(e);
    expect(all).toEqual([]);
  });
});

describe('repliesFor', () => {
  const sentAt = '2025-03-01T09:00:00.000Z';

  it('gives the first inbound message after the send, matched by client id, conversation id or phone', async () => {
    const log = await openEventsLog(file);
    await log.record(event('1', { client_id: '70', created_at: '2025-03-01T08:00:00.000Z' })); // before the send
    await log.record(event('2', { client_id: '70', created_at: '2025-03-01T11:00:00.000Z' }));
    await log.record(event('3', { client_id: '70', created_at: '2025-03-01T10:00:00.000Z' })); // earlier reply, logged later
    await log.record(event('4', { client_id: '71', conversation_id: '601', created_at: '2025-03-01T12:00:00.000Z' }));
    await log.record(event('5', { client_id: '99', conversation_id: '999', phone: '+5511000000003', created_at: '2025-03-02T00:00:00.000Z' }));
    await log.record(event('6', { client_id: '72', direction: 'outbound', sender_type: 'user', created_at: '2025-03-02T00:00:00.000Z' }));
    await log.record(event('7', { client_id: '73', conversation_id: '700', created_at: '2025-03-02T00:00:00.000Z' }));
    await log.close();

    const replies = await repliesFor(
      file,
      new Map([
        ['+5511000000001', { sentAt, clientId: '70' }],
        ['+5511000000002', { sentAt, conversationId: '601' }],
        ['+5511000000003', { sentAt }],
        ['+5511000000004', { sentAt, clientId: '72' }],
        ['+5511000000005', { sentAt }],
        ['+5511000000006', { sentAt: '2025-03-03T00:00:00.000Z', clientId: '70' }],
      ]),
      (clientId) => (clientId === '73' ? '+5511000000005' : undefined),
    );
    expect(Object.fromEntries(replies)).toEqual({
      '+5511000000001': '2025-03-01T10:00:00.000Z',
      '+5511000000002': '2025-03-01T12:00:00.000Z',
      '+5511000000003': '2025-03-02T00:00:00.000Z',
      '+5511000000005': '2025-03-02T00:00:00.000Z',
    });
  });
});
