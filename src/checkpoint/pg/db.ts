/**
 * The connection pool of a database store, and the two ways the backend talks to it: one statement,
 * or a transaction. Nothing here keeps session state (no session advisory lock, no LISTEN, no SET
 * outside a transaction), so the store works behind PgBouncer in transaction pooling. An idle
 * connection that dies is dropped by the pool (its `error` event), never a crash. A statement or a
 * transaction whose connection is lost is run again on a new one while the store has been unreachable
 * for less than the patience (`outage.ts`): every statement of the store is safe to run twice. The
 * pool lets the process exit when it is idle, so a command that forgets to close the store still
 * ends. How it connects (sslmode, the password) is `connection.ts`.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { MIGRATIONS, LATEST_VERSION } from './migrations.js';
import { connectionConfig } from './connection.js';
import { unavailable } from './errors.js';
import { DEFAULT_PATIENCE_SECONDS, Outage } from './outage.js';
import type { PgStoreUrl } from './url.js';

export type Queryable = Pick<pg.PoolClient, 'query'>;

export interface DbOptions {
  /** Connections at most (default 4: a run's journal, the lists, the lease, a reader). */
  max?: number;
  /** Give up connecting after this long (default 5,000 ms). */
  connectTimeoutMs?: number;
  /** How long the store may stay unreachable (a dropped connection, a pooler's restart) before a statement gives up (default 30 s; 0: never wait). */
  patienceSeconds?: number;
}

export class Db {
  readonly pool: pg.Pool;
  /** The quoted schema name, to put before every table. */
  readonly s: string;
  readonly outage: Outage;
  private ready: Promise<void> | undefined;

  constructor(
    readonly url: PgStoreUrl,
    options: DbOptions = {},
  ) {
    this.s = `"${url.schema}"`;
    this.outage = new Outage((options.patienceSeconds ?? DEFAULT_PATIENCE_SECONDS) * 1000, () => performance.now());
    this.pool = new pg.Pool({
      application_name: 'outreach',
      ...connectionConfig(url),
      max: options.max ?? 4,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
    });
    // A connection that dies while idle in the pool (a restart, a proxy's timeout): the pool drops it.
    this.pool.on('error', () => undefined);
    this.pool.on('connect', () => this.outage.connected());
  }

  /** The tables, created or upgraded on first use (once per process); a store that cannot be reached throws StoreUnavailableError. */
  migrated(): Promise<void> {
    const ready = (this.ready ??= this.patiently(() => migrate(this)).then(
      () => undefined,
      (err: unknown) => {
        this.ready = undefined;
        throw unavailable(err, this.url);
      },
    ));
    return ready;
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    await this.migrated();
    return this.patiently(() => this.pool.query<R>(text, values));
  }

  /** Runs `body` in one transaction: committed when it resolves, rolled back when it throws; run again whole when its connection is lost (it must leave nothing behind in memory). */
  async tx<T>(body: (client: Queryable) => Promise<T>): Promise<T> {
    await this.migrated();
    return this.patiently(() => this.rawTx(body));
  }

  /** Runs `work` until it goes through, again on a new connection while the outage lasts less than the patience. */
  private async patiently<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const result = await work();
        this.outage.ok();
        return result;
      } catch (err) {
        const next = this.outage.failed(err, attempt);
        if (next.kind === 'give_up') throw next.error;
        await new Promise((resolve) => setTimeout(resolve, next.waitMs));
      }
    }
  }

  /** A transaction without the migration check (the migration itself uses it). */
  async rawTx<T>(body: (client: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    // A connection that dies while lent out (a restart, a proxy's cut) is an 'error' on the client: the
    // query in flight rejects with it; without this listener it would end the process.
    const onError = () => {
      broken = true;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await body(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw err;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

/** A stable 64-bit key for the advisory lock of the schema's migrations. */
function lockKey(schema: string): string {
  let h = 0n;
  for (const c of `outreach-migrations:${schema}`) h = (h * 131n + BigInt(c.codePointAt(0) ?? 0)) & 0x7fff_ffff_ffff_ffffn;
  return h.toString();
}

/** Applies the migrations this schema lacks, under a transaction-level lock; returns the versions applied. */
export async function migrate(db: Db): Promise<number[]> {
  const s = db.s;
  return db.rawTx(async (c) => {
    await c.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey(db.url.schema)]);
    // Up to date already: nothing is created, so a role that may not create tables (the runners', after `store migrate`) gets through.
    const { rows: there } = await c.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [`${s}.schema_migrations`]);
    if (there[0]?.ok === true) {
      const { rows } = await c.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`);
      const newer = rows.find((r) => r.version > LATEST_VERSION);
      if (newer) throw new Error(`the store's schema ${db.url.schema} is at version ${newer.version}, newer than this program knows (${LATEST_VERSION}); upgrade outreach`);
      if (MIGRATIONS.every((m) => rows.some((r) => r.version === m.version))) return [];
    }
    await c.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await c.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`);
    const have = new Set(rows.map((r) => r.version));
    const newer = rows.find((r) => r.version > LATEST_VERSION);
    if (newer) throw new Error(`the store's schema ${db.url.schema} is at version ${newer.version}, newer than this program knows (${LATEST_VERSION}); upgrade outreach`);
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (have.has(m.version)) continue;
      await c.query(m.sql.replaceAll('$schema', s));
      await c.query(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}
