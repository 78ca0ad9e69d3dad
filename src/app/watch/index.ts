/** Watching a store's jobs as they run: their figures, rows and the one action (stop), for the console. */
export { storeWatch, companyRooms, type CompanyRoom, type StoreWatch, type StoreWatchOptions } from './store-watch.js';
export { jobFigures, phaseOf, progressOf, type JobFigures, type JobPhase, type JobRate } from './job-figures.js';
export { rateMeter, type MeasuredRate, type RateMeter } from './rate-meter.js';
export { RECIPIENT_STATUSES, isRecipientStatus, matches, recipientPage, recipientsCsv, type RecipientFilter, type RecipientPage } from './recipients.js';
export type { JobRows } from './job-rows.js';
