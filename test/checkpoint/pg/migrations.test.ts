import { afterAll, describe, expect, inject, it } from 'vitest';
import { createPgStore, type PgStateStore } from '../../../src/checkpoint/backends.js';
import { migrate } from '../../../src/checkpoint/pg/index.js';
import { MIGRATIONS } from '../../../src/checkpoint/pg/migrations.js';
import { schemaUrl } from '../../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');

describe.skipIf(!pgUrl)('the database store\'s tables', () => {
  const stores: PgStateStore[] = [];
  const open = (url: string) => {
    const s = createPgStore(url, { filesDir: '/nonexistent' });
    stores.push(s);
    return s;
  };
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
  });

  it('are created on first use, once, when several processes start together', async () => {
    const url = schemaUrl(pgUrl);
    const five = Array.from({ length: 5 }, () => open(url));
    const applied = await Promise.all(five.map((s) => migrate(s.db)));
    expect(applied.flat()).toEqual(MIGRATIONS.map((m) => m.version));
    const [first] = five;
    if (first === undefined) throw new Error('no store');
    const { rows } = await first.db.pool.query<{ version: number }>(`SELECT version FROM ${first.db.s}.schema_migrations ORDER BY version`);
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('refuses a schema a newer program upgraded, naming both versions', async () => {
    const url = schemaUrl(pgUrl);
    const s = open(url);
    await s.db.migrated();
    await s.db.pool.query(`INSERT INTO ${s.db.s}.schema_migrations (version, name) VALUES (999, 'future')`);
    const later = open(url);
    await expect(later.db.migrated()).rejects.toThrow(/version 999, newer than this program knows .*upgrade outreach/);
  });

  it('names the store, not its password, when the server cannot be reached', async () => {
    const s = open('postgres://me:secret@127.0.0.1:1/db');
    const err = await s.db.migrated().catch((e: unknown) => e);
    expect(err).toMatchObject({ userError: true, kind: 'aborted' });
    expect(String((err as Error).message)).toMatch(/the store \(database db on 127\.0\.0\.1:1\) cannot be used: the connection was refused/);
    expect(String((err as Error).message)).not.toContain('secret');
  });
});
