/** contacts/: contact lists (CSV, TSV, JSON, NDJSON) as a stream of contacts and rejects. */
export type { Contact, ContactRow, Reject, RejectReason } from './types.js';
export { contactReject } from './reject.js';
export type { LoaderOptions, PlaceholderColumns, PlaceholderUse } from './options.js';
export type { KnownPhones } from './known-phone.js';
export type { LoadItem, LoadCounts, LoadWarning, WarningExample, WarningKind, WarningSummary } from './items.js';
export { describeWarnings } from './warnings.js';
export type { PhoneResult } from './phone.js';
export { flat, loadContactBatches, loadContacts } from './load.js';
export { readAheadCsv, type CsvReadAhead } from './csv-read-ahead.js';
export { normalisePhone } from './phone.js';
export { countryLabel } from './country.js';
export { InputError } from './errors.js';
export { isClearYes } from './opt-in.js';
export { pickRows, type KnownRows, type Picked, type RowAt, type TailAt } from './pick.js';
export { numberZone, numberZones } from './number-zone.js';
