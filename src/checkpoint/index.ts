/** The storage port, the state types, the pure replay, and the file backend behind the port. */
export type * from './types.js';
export type * from './store.js';
export { rowKey } from './store.js';
export { ContactListing, type ListedContact } from './listing.js';
export { StateTable } from './state-table.js';
export { applyEvent, nextState, NO_ANSWER } from './apply-event.js';
export { replay } from './replay.js';
export { createFileStore, JournalWriteError, LockedError, LockWriteError, JobNameError, JournalVersionError, WindowFileError, SyncStateError } from './file/index.js';
export type { EventsLog, RecordedEvent, EventDirection, EventSource, OpenEventsLogOptions, SentContact, WindowLookup, WindowStore, SyncBook } from './file/index.js';
