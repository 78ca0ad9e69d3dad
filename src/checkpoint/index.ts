/**
 * The storage port: its own types, the state types, the pure folds and codecs, the port's errors.
 * It loads neither backend: the run path imports this; only the composition root (cli/store-root.ts)
 * opens a backend, through backends.ts.
 */
export type * from './types.js';
export type * from './store.js';
export { rowKey } from './store.js';
export { StoreUnavailableError, StoreWriteError, thenStep } from './errors.js';
export { ContactListing, type ListedContact, type ListingColumns } from './listing.js';
export type { ListingReads, ReadFile } from './listing-reads.js';
export { StateTable } from './state-table.js';
export { HELD, wholeRows, type StateRows, type StateRowsOptions } from './state-rows.js';
export { statesOf } from './map-states.js';
export { tallyKey, type StateTally, type TallyOptions } from './state-tally.js';
export { applyEvent, nextState, NO_ANSWER, MARKETING_LIMIT_REASON } from './apply-event.js';
export { deliveryAfter } from './apply-delivery.js';
export { deliveryEvent } from './delivery-codec.js';
export { replay } from './replay.js';
export { SuppressionIndex, SUPPRESSION_SOURCES, isSource } from './suppression.js';
export type { SuppressionEntry, SuppressionInput, SuppressionList, SuppressionSource, SuppressResult, UnsuppressOptions, SuppressionChange } from './suppression.js';
export { LedgerIndex } from './ledger.js';
export type { BudgetHolder, Ledger, LedgerEntry, LedgerMessage, LedgerView, RecentLedger, SentMessage } from './ledger.js';
export { inCompany } from './ledger.js';
export type { EventsLog, RecordedEvent, EventDirection, EventSource, OpenEventsLogOptions, SentContact } from './inbound.js';
export { parseEventLine } from './json-line.js';
export type { WindowLookup, WindowStore } from './windows.js';
export type { SyncBook } from './sync.js';
export { STORE_PARTS, type JobImport, type MessageKeyOf, type PartImport, type StoreImporter, type StorePart } from './store-import.js';
export { companyKey } from './job-key.js';
