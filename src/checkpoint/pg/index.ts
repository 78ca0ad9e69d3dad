export { createPgStore, type PgStoreOptions, type PgStateStore } from './store.js';
export { migrate } from './db.js';
export { migratePgStore, type MigrateOutcome } from './migrate-store.js';
export { pgStoreImporter, StoreImportError } from './import.js';
