/**
 * The PostgreSQL store's store-wide lists, where several processes (here: several stores, each with
 * its own pool of connections) write at once: what the contract suite cannot say for every backend.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createPgStore, StoreUnavailableError, StoreWriteError, type RecordedEvent } from '../../../src/checkpoint/backends.js';
import type { PgStateStore } from '../../../src/checkpoint/pg/index.js';
import { schemaUrl } from '../../helpers/pg-cluster.js';
import { inbound } from '../helpers.js';

const pgUrl = inject('pgUrl');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.parse('2025-01-01T12:00:00.000Z');

const phone = (n: number) => `+1555${String(n).padStart(7, '0')}`;


describe.skipIf(!pgUrl)('the database store\'s store-wide lists, written by several processes', () => {
  const stores: PgStateStore[] = [];
  let url = '';
  /** A store on the test's schema: a process of its own (its own pool). */
  const open = (at = url): PgStateStore => {
    const s = createPgStore(at, { filesDir: '/nonexistent' });
    stores.push(s);
    return s;
  };
  /** The first store of the test (on its schema). */
  const firstStore = (): PgStateStore => {
    const first = stores[0];
    if (first === undefined) throw new Error('no store opened');
    return first;
  };
  const fresh = () => {
    url = schemaUrl(pgUrl);
    return open();
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  /** Makes the database hold every transaction that writes a row matching `when` for a while before it commits: a writer that took its number first and commits last. */
  async function slowCommits(store: PgStateStore, table: string, when: string): Promise<void> {
    await store.db.migrated();
    const s = store.db.s;
    await store.db.pool.query(`CREATE FUNCTION ${s}.slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF ${when} THEN PERFORM pg_sleep(0.4); END IF; RETURN NULL; END $$`);
    await store.db.pool.query(`CREATE TRIGGER slow AFTER INSERT ON ${s}.${table} FOR EACH ROW EXECUTE FUNCTION ${s}.slow()`);
  }

  describe('the suppression list', () => {
    it('never misses, on refresh, a change that took its place first and committed last', async () => {
      const writer = fresh();
      await slowCommits(writer, 'suppression_changes', "NEW.change->>'reason' = 'slow'");
      const reader = await open().suppressions();
      const slow = writer.suppress([{ phone: phone(1), reason: 'slow', source: 'manual' }]);
      // The slow one is inside its transaction (its row numbered) before the quick one starts.
      await waitForRow(writer, 'suppression_changes');
      const quick = open().suppress([{ phone: phone(2), reason: 'quick', source: 'manual' }]);
      const refreshing = (async () => {
        while (reader.get(phone(2)) === undefined) await reader.refresh();
      })();
      await Promise.all([slow, quick, refreshing]);
      await reader.refresh();
      expect(reader.get(phone(1))?.reason).toBe('slow');
      expect(reader.get(phone(2))?.reason).toBe('quick');
    });

    it('shows a reader every change of many writers writing at once', async () => {
      fresh();
      const reader = await open().suppressions();
      const writers = [open(), open(), open()];
      let done = false;
      const refreshing = (async () => {
        while (!done) await reader.refresh();
      })();
      await Promise.all(
        writers.flatMap((w, i) => Array.from({ length: 30 }, (_, n) => w.suppress([{ phone: phone(i * 100 + n), reason: `writer ${i}`, source: 'manual' }]))),
      );
      done = true;
      await refreshing;
      await reader.refresh();
      expect(reader.size).toBe(90);
    });

    it('tells each of two stores suppressing the same phones at once which it added and which it found there', async () => {
      fresh();
      const [a, b] = [open(), open()];
      await Promise.all([a.suppressions(), b.suppressions()]);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, n) => [
          a.suppress([{ phone: phone(n), reason: 'from a', source: 'manual' }]),
          b.suppress([{ phone: phone(n), reason: 'from b', source: 'manual' }]),
        ]).flat(),
      );
      expect(results.flatMap((r) => r.added)).toHaveLength(20);
      expect(results.flatMap((r) => r.already)).toHaveLength(20);
    });
  });

  describe('the ledger', () => {
    it('never misses, on refresh, an entry that took its place first and committed last', async () => {
      const writer = fresh();
      await slowCommits(writer, 'ledger_ops', "NEW.job = 'slow'");
      const reader = await open().ledger();
      const slow = (await writer.ledger()).record({ phone: phone(1), at: NOW, job: 'slow', outsideWindow: true, id: 'slow-1' });
      await waitForRow(writer, 'ledger_ops');
      const quick = (await open().ledger()).record({ phone: phone(2), at: NOW, job: 'quick', outsideWindow: true, id: 'quick-1' });
      const refreshing = (async () => {
        while (reader.lastMessagedAt(phone(2)) === undefined) await reader.refresh();
      })();
      await Promise.all([slow, quick, refreshing]);
      await reader.refresh();
      expect(reader.lastMessagedAt(phone(1))).toBe(NOW);
      expect(reader.uniqueOutsideWindowSince(NOW - DAY)).toBe(2);
    });

    it('keeps every one of many entries recorded at once by several stores, each durable when it resolves', async () => {
      fresh();
      const reader = await open().ledger();
      const ledgers = await Promise.all([open().ledger(), open().ledger(), open().ledger()]);
      let done = false;
      const refreshing = (async () => {
        while (!done) await reader.refresh();
      })();
      await Promise.all(ledgers.flatMap((l, i) => Array.from({ length: 200 }, (_, n) => l.record({ phone: phone(i * 1000 + n), at: NOW, job: `job-${i}`, outsideWindow: true, id: `${i}-${n}` }))));
      done = true;
      await refreshing;
      await reader.refresh();
      expect(reader.uniqueOutsideWindowSince(NOW - DAY)).toBe(600);
      expect(await rowsOf(firstStore(), 'ledger_ops')).toBe(600);
    });
  });

  describe('the store-wide budget', () => {
    it('never grants more than the limit to several holders of several stores taking at once', async () => {
      fresh();
      const seed = await open().ledger();
      for (let n = 0; n < 5; n += 1) await seed.record({ phone: phone(n), at: NOW - HOUR, job: 'earlier', outsideWindow: true, id: `e${n}` });
      // Outside the rolling 24 hours, inside the window, or taken back: no place used.
      await seed.record({ phone: phone(50), at: NOW - DAY - 1, job: 'earlier', outsideWindow: true, id: 'old' });
      await seed.record({ phone: phone(51), at: NOW - HOUR, job: 'earlier', outsideWindow: false, id: 'inside' });
      await seed.record({ phone: phone(52), at: NOW - HOUR, job: 'earlier', outsideWindow: true, id: 'back' });
      await seed.takeBack({ phone: phone(52), at: NOW - HOUR, job: 'earlier', outsideWindow: true, id: 'back' });
      const holders = await Promise.all(Array.from({ length: 6 }, () => open().budgetHolder()));
      const granted = await Promise.all(
        holders.flatMap((h) => [h, h]).map(async (h) => {
          let total = 0;
          for (;;) {
            const got = await h.take(2, 60, NOW);
            if (got === 0) return total;
            total += got;
          }
        }),
      );
      expect(granted.reduce((a, b) => a + b, 0)).toBe(55);
      expect(holders.reduce((a, h) => a + h.held, 0)).toBe(55);
    });

    it('moves a used place from the holder to the ledger in one write, and frees the rest on release', async () => {
      const store = fresh();
      const holder = await store.budgetHolder();
      expect(await holder.take(5, 10, NOW)).toBe(5);
      const ledger = await store.ledger();
      await ledger.record({ phone: phone(1), at: NOW, job: 'promo', outsideWindow: true, id: 'a' }, holder);
      // Inside the window: no place used.
      await ledger.record({ phone: phone(2), at: NOW, job: 'promo', outsideWindow: false, id: 'b' }, holder);
      expect(holder.held).toBe(4);
      expect(await heldInDb(store)).toBe(4);

      const other = await open().budgetHolder();
      expect(await other.take(100, 10, NOW)).toBe(5);
      await holder.release();
      await holder.release();
      expect(holder.held).toBe(0);
      expect(await other.take(100, 10, NOW)).toBe(4);
      expect(await other.take(100, 10, NOW)).toBe(0);
    });

    it('lets the places of a holder that stopped using them lapse, and that holder holds none after', async () => {
      const store = fresh();
      const gone = await store.budgetHolder();
      expect(await gone.take(10, 10, NOW)).toBe(10);
      const other = await open().budgetHolder();
      expect(await other.take(1, 10, NOW)).toBe(0);
      // Five minutes without a take or a use, as the database's clock sees it.
      await store.db.pool.query(`UPDATE ${store.db.s}.budget_holds SET expires_at = now() - interval '1 second'`);
      expect(await other.take(7, 10, NOW)).toBe(7);
      expect(await gone.take(10, 10, NOW)).toBe(3);
      expect(gone.held).toBe(3);
    });
  });

  describe('the events and the windows', () => {
    it('moves an inbound message\'s window in the same write, seen by another store with no flush', async () => {
      const store = fresh();
      const events = await store.openEventsLog();
      await events.record(inbound('m1', 'c1', '2025-01-01T10:00:00.000Z', phone(1)));
      // A later message of the same client names no phone: its link is already stored.
      await events.record(inbound('m2', 'c1', '2025-01-01T11:00:00.000Z'));
      await events.record({ ...inbound('m3', 'c1', '2025-01-01T12:00:00.000Z'), direction: 'outbound', sender_type: 'user' });
      const lookup = await open().windows();
      expect(lookup.lastInboundAt(phone(1))).toBe(Date.parse('2025-01-01T11:00:00.000Z'));
      const windows = await open().openWindowStore();
      expect(windows.phoneOf('c1')).toBe(phone(1));
      expect(windows.lastInboundByClient('c1')).toBe(Date.parse('2025-01-01T11:00:00.000Z'));
      await events.close();
    });

    it('records a message two stores receive at once only once', async () => {
      fresh();
      const logs = await Promise.all([open().openEventsLog(), open().openEventsLog(), open().openEventsLog()]);
      const results = await Promise.all(logs.flatMap((log) => Array.from({ length: 20 }, (_, n) => log.record(inbound(`m${n}`, `c${n}`, '2025-01-01T10:00:00.000Z', phone(n))))));
      expect(results.filter(Boolean)).toHaveLength(20);
      expect(await rowsOf(firstStore(), 'events')).toBe(20);
      expect(logs.every((l) => l.has('m7') && l.size === 20)).toBe(true);
      await Promise.all(logs.map((l) => l.close()));
    });

    it('hands a log opened later the stored inbound messages only (the windows moved with them already), and knows every message id', async () => {
      const store = fresh();
      const events = await store.openEventsLog();
      const message = inbound('in', 'c1', '2025-01-01T10:00:00.000Z', phone(1));
      await events.record(message);
      await events.record({ ...inbound('out', 'c1', '2025-01-01T11:00:00.000Z'), direction: 'outbound', sender_type: 'user' });
      await events.close();
      const loaded: RecordedEvent[] = [];
      const again = await open().openEventsLog({ onLoad: (e) => loaded.push(e) });
      expect(loaded).toEqual([message]);
      expect(again.has('out')).toBe(true);
      expect(again.size).toBe(2);
      await again.close();
      await expect(again.record(inbound('late', 'c1', '2025-01-01T12:00:00.000Z'))).rejects.toThrow(/closed/);
    });

    it('keeps a window flushed by two stores at once at the later time', async () => {
      fresh();
      const [a, b] = await Promise.all([open().openWindowStore(), open().openWindowStore()]);
      for (let n = 0; n < 50; n += 1) {
        a.noteInbound({ clientId: `c${n}`, phone: phone(n), at: NOW + n });
        b.noteInbound({ clientId: `c${49 - n}`, phone: phone(49 - n), at: NOW - n });
      }
      await Promise.all([a.flush(), b.flush()]);
      const lookup = await open().windows();
      for (let n = 0; n < 50; n += 1) expect(lookup.lastInboundAt(phone(n))).toBe(NOW + n);
    });
  });

  describe('a database that cannot be reached', () => {
    it('fails a read as the store being unavailable and a write as a write that did not happen, naming the store', async () => {
      const gone = open('postgres://me:secret@127.0.0.1:1/db');
      await expect(gone.suppressions()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(gone.ledger()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(gone.windows()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(gone.loadSyncBook()).rejects.toBeInstanceOf(StoreUnavailableError);
      const write = await gone.suppress([{ phone: phone(1), reason: 'asked', source: 'manual' }]).catch((e: unknown) => e);
      expect(write).toBeInstanceOf(StoreWriteError);
      expect((write as Error).message).toMatch(/database db on 127\.0\.0\.1:1/);
      expect((write as Error).message).not.toContain('secret');
      await expect(gone.saveSyncBook({ updatedAt: null, conversations: new Map(), lastRun: null })).rejects.toBeInstanceOf(StoreWriteError);
    });
  });
});

async function waitForRow(store: PgStateStore, table: string): Promise<void> {
  // The row is not committed yet: its number is taken from the table's sequence.
  for (;;) {
    const { rows } = await store.db.pool.query<{ n: string }>(`SELECT last_value AS n FROM ${store.db.s}.${table}_seq_seq`);
    const called = await store.db.pool.query<{ c: boolean }>(`SELECT is_called AS c FROM ${store.db.s}.${table}_seq_seq`);
    if (rows[0]?.n === '1' && called.rows[0]?.c === true) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function rowsOf(store: PgStateStore, table: string): Promise<number> {
  const { rows } = await store.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${store.db.s}.${table}`);
  return rows[0]?.n ?? 0;
}

async function heldInDb(store: PgStateStore): Promise<number> {
  const { rows } = await store.db.pool.query<{ held: number }>(`SELECT coalesce(sum(held), 0)::int AS held FROM ${store.db.s}.budget_holds`);
  return rows[0]?.held ?? 0;
}
