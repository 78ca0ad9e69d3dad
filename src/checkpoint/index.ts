/** The storage port, the state types, the pure replay, and the file backend behind the port. */
export type * from './types.js';
export type * from './store.js';
export { rowKey } from './store.js';
export { ContactListing, type ListedContact } from './listing.js';
export { StateTable } from './state-table.js';
export { applyEvent, nextState, NO_ANSWER, MARKETING_LIMIT_REASON } from './apply-event.js';
export { deliveryAfter } from './apply-delivery.js';
export { replay } from './replay.js';
export { SuppressionIndex, SUPPRESSION_SOURCES, isSource } from './suppression.js';
export type { SuppressionEntry, SuppressionInput, SuppressionList, SuppressionSource, SuppressResult, UnsuppressOptions, SuppressionChange } from './suppression.js';
export { LedgerIndex } from './ledger.js';
export type { Ledger, LedgerEntry, LedgerMessage, LedgerView } from './ledger.js';
export { createFileStore, StateFileError, JournalWriteError, LockedError, LockWriteError, JobNameError, JournalVersionError, WindowFileError, SyncStateError } from './file/index.js';
export type { FileStoreOptions, JournalOptions, EventsLog, RecordedEvent, EventDirection, EventSource, OpenEventsLogOptions, SentContact, WindowLookup, WindowStore, SyncBook } from './file/index.js';
