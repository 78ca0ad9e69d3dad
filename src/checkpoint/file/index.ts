/** The file backend: `<state>/<job>/checkpoint.jsonl` and the state folder's shared files. */
export { createFileStore, type FileStoreOptions } from './store.js';
export { StateFileError, stateFileError } from './state-file-error.js';
export { jobStatePaths, globalStatePaths, ensureDir, JobNameError } from './paths.js';
export type { JobStatePaths, GlobalStatePaths } from './paths.js';
export { openJournal, JournalWriteError } from './journal.js';
export type { Journal, JournalFile, JournalOptions, JournalStats } from './journal.js';
export { readJournal, JournalVersionError } from './read-journal.js';
export type { JournalContents } from './read-journal.js';
export { openJobJournal, SNAPSHOT_DURING_RUN_BYTES } from './checkpoint.js';
export type { JobJournal, JobJournalOptions } from './checkpoint.js';
export { loadState, snapshotIfDue, SNAPSHOT_AFTER_BYTES } from './load-state.js';
export type { LoadedState } from './load-state.js';
export { readSnapshot, writeSnapshot, snapshotFileOf } from './snapshot.js';
export type { Snapshot, JournalPosition } from './snapshot.js';
export { foldJournal } from './fold-journal.js';
export { StateTable } from '../state-table.js';
export { compactJournal, shouldCompact } from './compact.js';
export type { CompactionResult } from './compact.js';
export { acquireLock, isProcessAlive, lockHolder, LockedError, LockWriteError } from './lock.js';
export type { Lock, LockInfo, LockIo, LockOwner } from './lock.js';
export * from './events-log.js';
export * from './window-store.js';
export * from './sync-book.js';
// The pure parts the backend's own tests check it against.
export { replay } from '../replay.js';
export { applyEvent, NO_ANSWER } from '../apply-event.js';
export type * from '../types.js';
