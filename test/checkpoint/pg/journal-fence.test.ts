/**
 * A journal write of the database store is fenced by the job's row: the statement reads the lease's
 * token FOR SHARE, so a take-over (an UPDATE of that row) waits for a write in flight instead of
 * letting the lapsed owner's rows land after it. Against the real test cluster: the write is held in
 * flight by another session's uncommitted row with the same id (its insert waits on that session), and
 * the take-over is seen waiting on a lock in `pg_stat_activity`, never timed.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createPgStore, type PgStateStore } from '../../../src/checkpoint/index.js';
import { appendRows } from '../../../src/checkpoint/pg/journal-writer.js';
import { takeLease } from '../../../src/checkpoint/pg/lease.js';
import { schemaUrl } from '../../helpers/pg-cluster.js';
import { waitFor } from '../../helpers/wait.js';

const pgUrl = inject('pgUrl');
const owner = (pid: number) => ({ host: 'runner', pid, startedAt: '2025-01-01T12:00:00.000Z', command: 'run' });

describe.skipIf(!pgUrl)('a journal write in flight', () => {
  const stores: PgStateStore[] = [];
  const clients: pg.Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.end().catch(() => undefined)));
    await Promise.all(stores.splice(0).map((s) => s.close()));
  });
  const session = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: pgUrl });
    clients.push(client);
    await client.connect();
    return client;
  };

  it('holds back a take-over of its job until it commits: the lapsed owner\'s rows land before the new token, never after', async () => {
    const store = createPgStore(schemaUrl(pgUrl), { filesDir: '/nonexistent', leaseSeconds: 30 });
    stores.push(store);
    const { db } = store;
    await db.migrated();
    const lease = await takeLease(db, 'promo', owner(1));
    lease.stop();
    // The lease has lapsed (a long pause): another process may take the job over.
    await db.query(`UPDATE ${db.s}.jobs SET lease_expires_at = now() - interval '1 second' WHERE job = 'promo'`);

    // Another session holds an uncommitted row with the id the write will use: the write's insert waits for it.
    const rid = randomUUID();
    const blocker = await session();
    await blocker.query('BEGIN');
    await blocker.query(`INSERT INTO ${db.s}.journal (job, phone, token, event, rid) VALUES ('elsewhere', NULL, 0, '{}', $1)`, [rid]);
    const observer = await session();
    const waiting = async (like: string): Promise<boolean> => {
      const { rows } = await observer.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`, [like]);
      return (rows[0]?.n ?? 0) > 0;
    };

    const row = { phone: '+15550000001', text: JSON.stringify({ t: 'skipped', phone: '+15550000001', reason: 'test', at: '2025-01-01T12:00:00.000Z' }), rid };
    const write = appendRows(db, lease, [row], false);
    await waitFor(() => waiting(`%INSERT INTO ${db.s}.journal%`));

    const takeOver = takeLease(db, 'promo', owner(2));
    const first = await Promise.race([takeOver.then(() => 'took over' as const), waitFor(() => waiting(`%${db.s}.jobs%FOR UPDATE%`)).then(() => 'waits for the write' as const)]);
    expect(first).toBe('waits for the write');

    await blocker.query('ROLLBACK');
    expect((await write).kind).toBe('written');
    const taken = await takeOver;
    taken.stop();
    const { rows } = await db.query<{ token: string }>(`SELECT token::text FROM ${db.s}.journal WHERE job = 'promo' ORDER BY seq`);
    expect(rows.map((r) => r.token)).toEqual([lease.token]);
    expect(BigInt(taken.token)).toBeGreaterThan(BigInt(lease.token));
  });
});
