/**
 * A job in the database: its fenced lease (one owner, a token that grows at each take-over, an expiry
 * the database's clock decides) and its journal (appends batched, written under the token, read back
 * from a snapshot and the journal's tail). The contract suite states what both backends share; this
 * file what only the database backend does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { createPgStore, StoreWriteError, type CheckpointEvent, type PgStoreOptions, type StateStore } from '../../../src/checkpoint/index.js';
import type { PgStateStore } from '../../../src/checkpoint/pg/index.js';
import { AT, attempt, phoneOf, sent } from '../helpers.js';
import { schemaUrl, startCluster } from '../../helpers/pg-cluster.js';
import { waitFor } from '../../helpers/wait.js';

const pgUrl = inject('pgUrl');

const header: CheckpointEvent = { t: 'header', v: 1, job: 'promo', fingerprint: 'f1', content: {}, at: AT };
const ownerA = { host: 'runner-a', pid: 1111, startedAt: AT, command: 'run' };
const ownerB = { host: 'runner-b', pid: 2222, startedAt: AT, command: 'resume' };
/** An owner that never renews by itself (as if paused): its lease lapses unless a write renews it. */
const PAUSED = { renewEverySeconds: 3600 };

describe.skipIf(!pgUrl)('a job in the database', () => {
  const stores: PgStateStore[] = [];
  const dirs: string[] = [];
  const open = async (url: string, options: Partial<PgStoreOptions> = {}): Promise<PgStateStore> => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outreach-pg-lease-'));
    dirs.push(dir);
    const store = createPgStore(url, { filesDir: dir, leaseSeconds: 2, ...options });
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });

  const lease = async (store: PgStateStore, job = 'promo') => {
    const { rows } = await store.db.query<{ token: string; host: string | null; pid: number | null; live: boolean }>(
      `SELECT lease_token::text AS token, owner_host AS host, owner_pid AS pid, coalesce(lease_expires_at > now(), false) AS live FROM ${store.db.s}.jobs WHERE job = $1`,
      [job],
    );
    return rows[0];
  };
  /** The owner's lease ends now, as the database's clock says (a dead owner's would, after leaseSeconds). */
  const expire = (store: PgStateStore, job = 'promo') => store.db.query(`UPDATE ${store.db.s}.jobs SET lease_expires_at = now() - interval '1 second' WHERE job = $1`, [job]);
  const journalRows = async (store: PgStateStore, job = 'promo') =>
    (await store.db.query<{ event: string; token: string; xid: string }>(`SELECT event, token::text AS token, xmin::text AS xid FROM ${store.db.s}.journal WHERE job = $1 ORDER BY seq`, [job])).rows;

  describe('its lease', () => {
    it('refuses a second owner, naming the holder\'s host and pid and when its lease ends', async () => {
      const url = schemaUrl(pgUrl);
      const job = await (await open(url)).openJob('promo', ownerA);
      const refused = await (await open(url)).openJob('promo', ownerB).catch((err: unknown) => err);
      expect(refused).toMatchObject({ userError: true });
      expect((refused as Error).message).toMatch(/job "promo" is already running \(pid 1111 on host runner-a, started 2025-01-01T00:00:00\.000Z, its lease ending at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z unless renewed\); wait for it or stop it \(a run that is gone is taken over once its lease ends\)/);
      await job.close();
    });

    it('goes to exactly one of several owners opening a new job together; the others are refused naming it', async () => {
      const url = schemaUrl(pgUrl);
      const racers = await Promise.all(Array.from({ length: 5 }, () => open(url)));
      const outcomes = await Promise.allSettled(racers.map((s, i) => s.openJob('promo', { ...ownerA, pid: 100 + i })));
      const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [{ job: o.value, pid: 100 + i }] : []));
      expect(won).toHaveLength(1);
      const winner = won[0];
      for (const o of outcomes) if (o.status === 'rejected') expect(String((o.reason as Error).message)).toContain(`pid ${winner?.pid} on host runner-a`);
      await winner?.job.close();
    });

    it('is taken over once the owner\'s lease expired: the new owner says from whom, under a bigger token', async () => {
      const url = schemaUrl(pgUrl);
      const first = await open(url);
      const dead = await first.openJob('promo', ownerA);
      await dead.record(header);
      const before = await lease(first);
      await first.close(); // the process dies: nothing renews its lease
      const other = await open(url);
      await expire(other);
      expect(await other.runningBy('promo')).toBeUndefined();

      const job = await other.openJob('promo', ownerB);
      expect(job.tookOverFrom).toEqual({ host: 'runner-a', pid: 1111 });
      expect(job.header).toEqual(header);
      const after = await lease(other);
      expect(BigInt(after?.token ?? 0)).toBeGreaterThan(BigInt(before?.token ?? 0));
      expect(after).toMatchObject({ host: 'runner-b', pid: 2222, live: true });
      await job.close();
      await dead.close();
    });

    it('does not say it took over a job whose last owner released it', async () => {
      const url = schemaUrl(pgUrl);
      const store = await open(url);
      await (await store.openJob('promo', ownerA)).close();
      expect(await lease(store)).toMatchObject({ host: null, pid: null, live: false });
      const job = await (await open(url)).openJob('promo', ownerB);
      expect(job.tookOverFrom).toBeUndefined();
      await job.close();
    });

    it('keeps a live owner\'s lease past leaseSeconds by renewing it', async () => {
      const url = schemaUrl(pgUrl);
      const store = await open(url);
      const job = await store.openJob('promo', ownerA);
      const { rows } = await store.db.query<{ ends: Date }>(`SELECT lease_expires_at AS ends FROM ${store.db.s}.jobs WHERE job = 'promo'`);
      const firstEnd = rows[0]?.ends ?? new Date(0);
      await waitFor(async () => (await store.db.query<{ past: boolean }>('SELECT now() > $1::timestamptz AS past', [firstEnd])).rows[0]?.past === true);
      expect(await lease(store)).toMatchObject({ host: 'runner-a', live: true });
      await expect((await open(url)).openJob('promo', ownerB)).rejects.toThrow(/pid 1111 on host runner-a/);
      await job.close();
    });

    it('stops an owner that lost its lease: its next write is refused, names the new owner, and writes nothing', async () => {
      const url = schemaUrl(pgUrl);
      const first = await open(url, PAUSED);
      const stale = await first.openJob('promo', ownerA);
      await stale.record(header);
      await expire(first);
      const job = await (await open(url)).openJob('promo', ownerB);
      expect(job.tookOverFrom).toEqual({ host: 'runner-a', pid: 1111 });

      const refused = await stale.record(attempt(phoneOf(1))).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(StoreWriteError);
      expect((refused as Error).message).toMatch(/job "promo" was taken over by pid 2222 on host runner-b/);
      await expect(stale.record(attempt(phoneOf(2)))).rejects.toBeInstanceOf(StoreWriteError);
      expect(stale.states.size).toBe(0);
      expect((await journalRows(first)).map((r) => JSON.parse(r.event) as CheckpointEvent)).toEqual([header]);
      await stale.close();
      expect(await lease(first)).toMatchObject({ host: 'runner-b', live: true });
      await job.close();
    });

    it('renews before writing when its own clock says the lease may have lapsed (a paused process), and goes on when nobody took the job', async () => {
      const url = schemaUrl(pgUrl);
      let now = 0;
      const store = await open(url, { ...PAUSED, clock: () => now });
      const job = await store.openJob('promo', ownerA);
      await expire(store);
      now += 5_000; // paused past its lease
      await job.record(attempt(phoneOf(1)));
      expect(await lease(store)).toMatchObject({ host: 'runner-a', live: true });
      expect(job.states.get(phoneOf(1))?.status).toBe('in_doubt');
      await job.close();
    });

    it('says nobody runs a job whose owner\'s lease expired', async () => {
      const url = schemaUrl(pgUrl);
      const store = await open(url, PAUSED);
      const job = await store.openJob('promo', ownerA);
      expect((await store.runningBy('promo'))?.pid).toBe(1111);
      await expire(store);
      expect(await store.runningBy('promo')).toBeUndefined();
      await job.close();
    });
  });

  describe('its journal', () => {
    it('writes many concurrent records in order, all durable, in fewer transactions than events', async () => {
      const url = schemaUrl(pgUrl);
      const store = await open(url);
      const job = await store.openJob('promo', ownerA);
      const events: CheckpointEvent[] = [header];
      for (let i = 0; i < 300; i++) events.push(attempt(phoneOf(i)), sent(phoneOf(i), i));
      await Promise.all(events.map((e) => job.record(e)));
      expect(job.states.size).toBe(300);

      const rows = await journalRows(store);
      expect(rows.map((r) => JSON.parse(r.event) as CheckpointEvent)).toEqual(events);
      expect(new Set(rows.map((r) => r.xid)).size).toBeLessThan(events.length);
      const view = await (await open(url)).readJob('promo');
      expect(new Map(view?.states)).toEqual(new Map(job.states));
      await job.close();
    });

    it('folds each event once its batch committed, in the order recorded', async () => {
      const url = schemaUrl(pgUrl);
      const job = await (await open(url)).openJob('promo', ownerA);
      const first = job.record(attempt(phoneOf(1)));
      const second = job.record(sent(phoneOf(1), 1));
      expect(job.states.size).toBe(0);
      await first;
      await second;
      expect(job.states.get(phoneOf(1))?.status).toBe('sent');
      await job.close();
    });

    it('writes a snapshot on close, and a reopening reads it and the journal after it to the same states', async () => {
      const url = schemaUrl(pgUrl);
      const store = await open(url);
      const job = await store.openJob('promo', ownerA);
      await job.record(header);
      const many: Promise<void>[] = [];
      for (let i = 0; i < 3_000; i++) many.push(job.record(attempt(phoneOf(i))), job.record(sent(phoneOf(i), i)));
      await Promise.all(many);
      await job.close();
      const snap = await store.db.query<{ upto: string }>(`SELECT upto::text AS upto FROM ${store.db.s}.snapshots WHERE job = 'promo'`);
      expect(snap.rows).toHaveLength(1);

      const again = await (await open(url)).openJob('promo', ownerB);
      expect(again.states.size).toBe(3_000);
      await again.record({ t: 'skipped', phone: phoneOf(5_000), reason: 'suppressed', at: AT });
      await again.record(attempt(phoneOf(7)));
      const live = new Map(again.states);
      await again.close();
      const tail = await store.db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${store.db.s}.journal WHERE job = 'promo' AND seq > $1`, [snap.rows[0]?.upto]);
      expect(tail.rows[0]?.n).toBe('2');

      const view = await (await open(url)).readJob('promo');
      expect(view?.header).toEqual(header);
      expect(new Map(view?.states)).toEqual(live);
      expect(view?.states.get(phoneOf(7))?.status).toBe('sent');
    });

    it('reads back a journal longer than one read, in the order it was written', async () => {
      const url = schemaUrl(pgUrl);
      const job = await (await open(url)).openJob('promo', ownerA);
      const many: Promise<void>[] = [job.record(header)];
      for (let i = 0; i < 10_300; i++) many.push(job.record(attempt(phoneOf(i))), job.record(sent(phoneOf(i), i)));
      await Promise.all(many);
      // Read while the job is open: no snapshot yet, the whole journal is folded.
      const view = await (await open(url)).readJob('promo');
      expect(view?.states.size).toBe(10_300);
      expect(new Map(view?.states)).toEqual(new Map(job.states));
      await job.close();
    });

    it('ignores a snapshot that does not check and reads the whole journal instead', async () => {
      const url = schemaUrl(pgUrl);
      const store = await open(url);
      const job = await store.openJob('promo', ownerA);
      const many: Promise<void>[] = [job.record(header)];
      for (let i = 0; i < 2_600; i++) many.push(job.record(attempt(phoneOf(i))), job.record(sent(phoneOf(i), i)));
      await Promise.all(many);
      const live = new Map(job.states);
      await job.close();
      const { rowCount } = await store.db.query(`UPDATE ${store.db.s}.snapshots SET data = substring(data FROM 1 FOR 100) WHERE job = 'promo'`);
      expect(rowCount).toBe(1);
      const view = await (await open(url)).readJob('promo');
      expect(view?.header).toEqual(header);
      expect(new Map(view?.states)).toEqual(live);
    });

    it('gives every event of a contact from the journal, even those a snapshot covers', async () => {
      const url = schemaUrl(pgUrl);
      const store = await open(url);
      const job = await store.openJob('promo', ownerA);
      await job.record(attempt(phoneOf(1)));
      await job.record(sent(phoneOf(1), 1));
      await job.close();
      expect((await store.contactEvents('promo', phoneOf(1))).map((e) => e.t)).toEqual(['attempt', 'sent']);
      expect(await store.contactEvents('promo', phoneOf(2))).toEqual([]);
    });
  });

  describe('a database that goes away', () => {
    const clusters: Array<{ destroy(): Promise<void> }> = [];
    afterAll(async () => {
      await Promise.all(clusters.map((c) => c.destroy()));
    });

    it('refuses the next record with the store\'s write error, naming the store, and every record after it', async () => {
      const cluster = await startCluster();
      clusters.push(cluster);
      const store: StateStore = await open(schemaUrl(cluster.url), { connectTimeoutMs: 1_000, patienceSeconds: 1 });
      const job = await store.openJob('promo', ownerA);
      await job.record(header);
      await cluster.stop('immediate');
      const refused = await job.record(attempt(phoneOf(1))).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(StoreWriteError);
      expect((refused as Error).message).toMatch(/could not write the journal of job "promo" to the store \(database postgres on 127\.0\.0\.1:\d+\)/);
      await expect(job.record(attempt(phoneOf(2)))).rejects.toBeInstanceOf(StoreWriteError);
      expect(job.states.size).toBe(0);
      await job.close();
    });

    it('refuses to open a job, naming the store, when the database cannot be reached', async () => {
      const store = await open('postgres://me:secret@127.0.0.1:1/db', { connectTimeoutMs: 1_000 });
      const err = await store.openJob('promo', ownerA).catch((e: unknown) => e);
      expect(err).toMatchObject({ userError: true, kind: 'aborted' });
      expect((err as Error).message).not.toContain('secret');
      await expect(store.readJob('promo')).rejects.toMatchObject({ kind: 'aborted' });
    });
  });
});
