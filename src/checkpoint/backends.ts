/**
 * The store whole: the port (index.ts) and its two backends, the file backend (`file/`) and the
 * PostgreSQL one (`pg/`): their factories, the database URL's reader, `store migrate` and
 * `store import`, and the taking in of an earlier version's state folder. For the composition root
 * (cli/store-root.ts), the public index and tests; the run path imports the port alone, so it loads
 * neither backend (test/architecture.test.ts holds it).
 */
export * from './index.js';
// The file backend: its factory (and the factory's options) only; what it returns is a StateStore.
export { createFileStore, type FileStoreOptions } from './file/index.js';
// The PostgreSQL backend: its factory, the URL reader, and `store migrate` / `store import`.
export { createPgStore, type PgStoreOptions, type PgStateStore } from './pg/index.js';
export { isPgUrl, maskUrl, parsePgUrl, StoreUrlError, type PgStoreUrl } from './pg/url.js';
export { migratePgStore, pgStoreImporter, StoreImportError, type MigrateOutcome } from './pg/index.js';
// Taking a state folder (an earlier version's `.outreach/` beside a job file) into a file store.
export { fileStoreImporter, type FileImportOptions } from './file/import.js';
export { legacyFolderWaiting, movedTo, takeLegacyFolder, MOVED_MARK } from './file/legacy-folder.js';
