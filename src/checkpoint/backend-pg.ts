/**
 * The PostgreSQL backend, for the composition root (cli/store-root.ts), which loads it with
 * `import()` only when the store is a database: its factory, `store migrate` and `store import`.
 * The URL reader, which loads no node-postgres, is backend-url.ts.
 */
export { createPgStore, type PgStoreOptions, type PgStateStore } from './pg/index.js';
export { migratePgStore, pgStoreImporter, StoreImportError, type MigrateOutcome } from './pg/index.js';
