/** The storage port (its own types only), the state types, the pure replay, and the file backend's factory. */
export type * from './types.js';
export type * from './store.js';
export { rowKey } from './store.js';
export { StoreUnavailableError, StoreWriteError, thenStep } from './errors.js';
export { ContactListing, type ListedContact, type ListingColumns } from './listing.js';
export type { ListingReads, ReadFile } from './listing-reads.js';
export { StateTable } from './state-table.js';
export type { ColumnRows, Columns } from './state-columns.js';
export { tallyKey, type StateTally } from './state-tally.js';
export { applyEvent, nextState, NO_ANSWER, MARKETING_LIMIT_REASON } from './apply-event.js';
export { deliveryAfter } from './apply-delivery.js';
export { deliveryEvent } from './delivery-codec.js';
export { replay } from './replay.js';
export { SuppressionIndex, SUPPRESSION_SOURCES, isSource } from './suppression.js';
export type { SuppressionEntry, SuppressionInput, SuppressionList, SuppressionSource, SuppressResult, UnsuppressOptions, SuppressionChange } from './suppression.js';
export { LedgerIndex } from './ledger.js';
export type { BudgetHolder, Ledger, LedgerEntry, LedgerMessage, LedgerView, SentMessage } from './ledger.js';
export { inCompany } from './ledger.js';
export type { EventsLog, RecordedEvent, EventDirection, EventSource, OpenEventsLogOptions, SentContact } from './inbound.js';
export { parseEventLine } from './json-line.js';
export type { WindowLookup, WindowStore } from './windows.js';
export type { SyncBook } from './sync.js';
export { RATE_SHARE_EXPIRY_MS, RATE_SHARE_LEAVE_MS, grantedShare, type RateClaim, type RateShare } from './rate-share.js';
// The file backend: its factory (and the factory's options) only; what it returns is a StateStore.
export { createFileStore, type FileStoreOptions } from './file/index.js';
// The PostgreSQL backend: its factory, the URL reader, and `store migrate` / `store import`.
export { createPgStore, type PgStoreOptions, type PgStateStore } from './pg/index.js';
export { isPgUrl, maskUrl, parsePgUrl, StoreUrlError, type PgStoreUrl } from './pg/url.js';
export { migratePgStore, pgStoreImporter, StoreImportError, type MigrateOutcome } from './pg/index.js';
export { STORE_PARTS, type JobImport, type MessageKeyOf, type PartImport, type StoreImporter, type StorePart } from './store-import.js';
// Taking a state folder (an earlier version's `.outreach/` beside a job file) into a file store.
export { fileStoreImporter, type FileImportOptions } from './file/import.js';
export { legacyFolderWaiting, movedTo, takeLegacyFolder, MOVED_MARK } from './file/legacy-folder.js';
export { companyKey } from './job-key.js';
