/**
 * The receiver's spool over the file store, its writes failing on demand: the store's own files and
 * code run; only the chosen writes are refused, as a full disk would refuse them.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileStore, StoreWriteError, type EventsLog, type StateStore } from '../../src/checkpoint/index.js';
import { startReceiver, type Receiver, type ReceiverOptions } from '../../src/webhook/index.js';
import { delivery, SECRET, storedEvents, storedWindow } from './helpers/events.js';
import { send } from './helpers/http.js';

const PHONE = '+5511999990001';
let dir: string;
let receiver: Receiver | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'outreach-spool-receiver-'));
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
  await rm(dir, { recursive: true, force: true });
});

const full = () => new StoreWriteError(`could not write ${dir}: the disk is full (ENOSPC)`, 'make room');

/** The file store of `dir`, whose event records and suppression writes fail while `down` names them. */
function failing(store: StateStore, down: Set<'events' | 'suppress'>): StateStore {
  return new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop === 'account') return (company: number) => failing(target.account(company), down);
      if (prop === 'suppress') return (...args: Parameters<StateStore['suppress']>) => (down.has('suppress') ? Promise.reject(full()) : target.suppress(...args));
      if (prop === 'openEventsLog') {
        return async (...args: Parameters<StateStore['openEventsLog']>): Promise<EventsLog> => {
          const log = await target.openEventsLog(...args);
          return {
            has: (id) => log.has(id),
            get size() {
              return log.size;
            },
            record: (event) => (down.has('events') ? Promise.reject(full()) : log.record(event)),
            close: () => log.close(),
          };
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The wait between two tries of the store, held until `open`. */
function gate(): { sleep: NonNullable<ReceiverOptions['sleep']>; open(): void } {
  let opened = false;
  const held: Array<() => void> = [];
  return {
    sleep: (_ms, signal) =>
      new Promise<void>((resolve) => {
        if (opened || signal.aborted) return void setImmediate(resolve);
        held.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      }),
    open() {
      opened = true;
      for (const release of held.splice(0)) release();
    },
  };
}

async function post(r: Receiver, d: ReturnType<typeof delivery>): Promise<number> {
  return (await send(r.url, { body: d.raw, headers: { 'x-service-signature': d.signature } })).status;
}

const spoolDir = () => path.join(dir, 'webhook-spool');
const segments = async () => (await readdir(spoolDir())).filter((n) => n.endsWith('.jsonl'));

describe('the receiver with a spool, over the file store', () => {
  it('keeps in the spool an event its events log refused, answers 200, and records it and its window once the store writes again', async () => {
    const down = new Set<'events' | 'suppress'>(['events']);
    const retry = gate();
    receiver = await startReceiver({ port: 0, secret: SECRET, store: failing(createFileStore(dir), down), spoolDir: spoolDir(), sleep: retry.sleep, knownPhones: () => PHONE });
    const d = delivery({ clientId: '77', createdAt: '2025-03-01T10:00:00.000Z' });
    expect(await post(receiver, d)).toBe(200);
    expect(receiver.stats).toMatchObject({ recorded: 0, spooled: 1 });
    expect(receiver.health()).toEqual({ storeUp: false, spooling: true, spooled: 1, reason: `could not write ${dir}: the disk is full (ENOSPC)` });
    expect(await segments()).toHaveLength(1);
    // Later deliveries go to the spool too, behind it.
    const later = delivery({ clientId: '77', createdAt: '2025-03-01T11:00:00.000Z' });
    down.clear();
    expect(await post(receiver, later)).toBe(200);
    expect(receiver.stats.spooled).toBe(2);

    retry.open();
    await receiver.drained();
    expect((await storedEvents(path.join(dir, 'events.jsonl'))).map((e) => e.message_id)).toEqual([d.messageId, later.messageId]);
    expect((await storedWindow(path.join(dir, 'window.json')))?.phones[PHONE]).toBe('2025-03-01T11:00:00.000Z');
    expect(await segments()).toEqual([]);
    expect(receiver.health()).toEqual({ storeUp: true, spooling: false, spooled: 0 });
  });

  it('keeps a recorded STOP in the spool when its opt-out could not be written, and puts the phone on the list once the store writes again', async () => {
    const down = new Set<'events' | 'suppress'>(['suppress']);
    const retry = gate();
    const store = createFileStore(dir);
    receiver = await startReceiver({ port: 0, secret: SECRET, store: failing(store, down), spoolDir: spoolDir(), sleep: retry.sleep, knownPhones: () => PHONE });
    const stop = delivery({ clientId: '77', content: 'STOP' });
    expect(await post(receiver, stop)).toBe(200);
    await receiver.settled();
    expect(receiver.stats).toMatchObject({ recorded: 1, spooled: 0 });
    expect(receiver.health()).toMatchObject({ storeUp: false, spooling: true, spooled: 1 });
    expect((await store.suppressions()).get(PHONE)).toBeUndefined();

    down.clear();
    retry.open();
    await receiver.drained();
    expect((await store.suppressions()).get(PHONE)).toMatchObject({ source: 'reply_keyword' });
    expect(await storedEvents(path.join(dir, 'events.jsonl'))).toHaveLength(1);
    expect(receiver.stats.appliedFromSpool).toBe(1);
  });

  it('answers 500 as before when it has no spool folder and the store refuses the event', async () => {
    receiver = await startReceiver({ port: 0, secret: SECRET, store: failing(createFileStore(dir), new Set(['events'])) });
    expect(await post(receiver, delivery())).toBe(500);
    expect(receiver.stats).toMatchObject({ storeFailures: 1, spooled: 0 });
    expect(receiver.health()).toMatchObject({ storeUp: false, spooling: false, spooled: 0 });
  });
});
