/**
 * The file backend, for the composition root (cli/store-root.ts): its factory, `store import` into a
 * state folder, and the taking in of an earlier version's state folder. Loads no node-postgres, so a
 * command on a state folder starts without it (the database backend is backend-pg.ts, loaded only
 * for a database store).
 */
// Its factory (and the factory's options) only; what it returns is a StateStore.
export { createFileStore, type FileStoreOptions } from './file/index.js';
// Taking a state folder (an earlier version's `.outreach/` beside a job file) into a file store.
export { fileStoreImporter, type FileImportOptions } from './file/import.js';
export { legacyFolderWaiting, movedTo, takeLegacyFolder, MOVED_MARK } from './file/legacy-folder.js';
