/**
 * The backends the storage port's contract suite runs against. A new backend is one more entry:
 * `open` gives a store on a fresh, empty place, `another` a second store on the same place (as a
 * second process, on this host or another, would open it), `cleanup` removes the place.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { createFileStore, createPgStore, type StateStore } from '../../../src/checkpoint/backends.js';
import { schemaUrl } from '../../helpers/pg-cluster.js';

export interface OpenedBackend {
  store: StateStore;
  another(): Promise<StateStore>;
  cleanup(): Promise<void>;
}

export interface Backend {
  name: string;
  open(): Promise<OpenedBackend>;
}

const pgUrl = inject('pgUrl');

export const backends: Backend[] = [
  {
    name: 'file',
    async open() {
      const dir = await mkdtemp(path.join(tmpdir(), 'outreach-contract-'));
      return {
        store: createFileStore(dir),
        another: () => Promise.resolve(createFileStore(dir)),
        cleanup: () => rm(dir, { recursive: true, force: true }),
      };
    },
  },
];

/** PostgreSQL, when the test setup started a cluster (never skipped in CI: the setup fails instead). */
if (pgUrl) {
  backends.push({
    name: 'postgres',
    async open() {
      const url = schemaUrl(pgUrl);
      const dir = await mkdtemp(path.join(tmpdir(), 'outreach-contract-pg-'));
      const opened: StateStore[] = [];
      const open = () => {
        const store = createPgStore(url, { filesDir: dir, leaseSeconds: 2 });
        opened.push(store);
        return store;
      };
      const store = open();
      return {
        store,
        another: () => Promise.resolve(open()),
        async cleanup() {
          const schema = new URL(url).searchParams.get('schema') ?? '';
          await store.close();
          const admin = createPgStore(pgUrl, { filesDir: dir });
          await admin.db.pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await admin.close();
          await Promise.all(opened.map((s) => s.close()));
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  });
}
