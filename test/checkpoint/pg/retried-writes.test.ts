/**
 * Every write of the database store is safe to run twice: a statement run again after its connection
 * was lost (its first try may have committed) finds its own rows by their ids and writes nothing twice,
 * and a journal write stays fenced by the lease. Against the real test cluster: each write below is
 * made twice with the same ids, as the store's retry makes it; then sessions are terminated under a
 * store that goes on.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createPgStore, type PgStateStore } from '../../../src/checkpoint/index.js';
import { PgBudgetHolder } from '../../../src/checkpoint/pg/budget.js';
import { insertEvents } from '../../../src/checkpoint/pg/events.js';
import { appendRows } from '../../../src/checkpoint/pg/journal-writer.js';
import { takeLease } from '../../../src/checkpoint/pg/lease.js';
import { writeLedgerOps, type Op } from '../../../src/checkpoint/pg/ledger.js';
import { schemaUrl } from '../../helpers/pg-cluster.js';
import { attempt, inbound } from '../helpers.js';

const pgUrl = inject('pgUrl');
const owner = (pid: number) => ({ host: 'runner', pid, startedAt: '2025-01-01T12:00:00.000Z', command: 'run' });
const NOW = Date.parse('2025-01-01T12:00:00.000Z');

describe.skipIf(!pgUrl)('a write of the database store run again', () => {
  const stores: PgStateStore[] = [];
  const open = (url = schemaUrl(pgUrl)): PgStateStore => {
    const store = createPgStore(url, { filesDir: '/nonexistent', leaseSeconds: 30 });
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });

  it('keeps a journal batch once and answers the same last row; once the lease is another\'s it answers lost, rows there or not', async () => {
    const { db } = open();
    await db.migrated();
    const lease = await takeLease(db, 'promo', owner(1));
    lease.stop();
    const rows = ['+15550000001', '+15550000002'].map((phone, i) => ({ phone, text: JSON.stringify({ t: 'skipped', phone, reason: 'test', at: `2025-01-01T12:00:0${i}.000Z` }), rid: randomUUID() }));
    const first = await appendRows(db, lease, rows, false);
    const again = await appendRows(db, lease, rows, false);
    expect(first.kind).toBe('written');
    expect(again).toEqual(first);
    const { rows: kept } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${db.s}.journal WHERE job = 'promo'`);
    expect(kept[0]?.n).toBe(2);

    await db.query(`UPDATE ${db.s}.jobs SET lease_expires_at = now() - interval '1 second' WHERE job = 'promo'`);
    (await takeLease(db, 'promo', owner(2))).stop();
    expect(await appendRows(db, lease, rows, false)).toEqual({ kind: 'lost' });
    expect(await appendRows(db, lease, [{ ...rows[0], rid: randomUUID() } as (typeof rows)[number]], true)).toEqual({ kind: 'lost' });
    const { rows: after } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${db.s}.journal WHERE job = 'promo'`);
    expect(after[0]?.n).toBe(2);
  });

  it('keeps a ledger entry once and lowers its holder\'s places once', async () => {
    const store = open();
    const holder = await store.budgetHolder();
    if (!(holder instanceof PgBudgetHolder)) throw new Error('not the database store\'s holder');
    expect(await holder.take(5, 100, NOW)).toBe(5);
    const { id } = holder;
    const op: Op = { id: randomUUID(), op: 'add', entry: { phone: '+15550000001', at: NOW, job: 'promo', outsideWindow: true, id: randomUUID() }, holder: id };
    await writeLedgerOps(store.db, [op]);
    await writeLedgerOps(store.db, [op]);
    const { rows: entries } = await store.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${store.db.s}.ledger_ops`);
    expect(entries[0]?.n).toBe(1);
    const { rows: holds } = await store.db.query<{ held: number }>(`SELECT held FROM ${store.db.s}.budget_holds WHERE holder = $1`, [id]);
    expect(holds[0]?.held).toBe(4);
  });

  it('answers "new" for a webhook event its earlier try recorded, and "already there" to another write of it', async () => {
    const { db } = open();
    await db.migrated();
    const event = inbound('m-1', 'c-1', '2025-01-01T12:00:00.000Z', '+15550000001');
    const write = randomUUID();
    const once = await db.tx((c) => insertEvents(c, db.s, [event], write));
    const twice = await db.tx((c) => insertEvents(c, db.s, [event], write));
    const other = await db.tx((c) => insertEvents(c, db.s, [event], randomUUID()));
    expect([once.has('m-1'), twice.has('m-1'), other.has('m-1')]).toEqual([true, true, false]);
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${db.s}.events`);
    expect(rows[0]?.n).toBe(1);
  });

  it('goes on through its sessions terminated between two writes: the suppression list, the journal and the ledger keep each record once', async () => {
    const app = `outreach_t${Date.now().toString(36)}${process.pid}`;
    const url = schemaUrl(`${pgUrl}?application_name=${app}`);
    const store = open(url);
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    const terminate = async () => {
      const { rows } = await admin.query<{ done: boolean }>('SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1', [app]);
      return rows.filter((r) => r.done).length;
    };
    try {
      await store.suppress([{ phone: '+15550000001', reason: 'STOP', source: 'reply_keyword' }]);
      const job = await store.openJob('promo', owner(3));
      const ledger = await store.ledger();
      expect(await terminate()).toBeGreaterThan(0);
      const added = await store.suppress([{ phone: '+15550000002', reason: 'STOP', source: 'reply_keyword' }]);
      expect(added.added.map((e) => e.phone)).toEqual(['+15550000002']);
      expect(await terminate()).toBeGreaterThan(0);
      await job.record(attempt('+15550000003'));
      expect(await terminate()).toBeGreaterThan(0);
      await ledger.record({ phone: '+15550000003', at: NOW, job: 'promo', outsideWindow: false, id: randomUUID() });
      await job.close();
      const { rows } = await admin.query<{ journal: number; ledger: number; suppressed: number }>(
        `SELECT (SELECT count(*) FROM ${store.db.s}.journal)::int AS journal, (SELECT count(*) FROM ${store.db.s}.ledger_ops)::int AS ledger, (SELECT count(*) FROM ${store.db.s}.suppression_changes)::int AS suppressed`,
      );
      expect(rows[0]).toEqual({ journal: 1, ledger: 1, suppressed: 2 });
    } finally {
      await admin.end();
    }
  });
});
