export { createPgStore, type PgStoreOptions, type PgStateStore } from './store.js';
export { migrate } from './db.js';
