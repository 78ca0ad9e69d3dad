/** The campaign use-cases: what the command line calls, and what other programs import. */
export { AppError, type AppErrorKind } from './errors.js';
export { platformError, onPlatform } from './platform-errors.js';
export { prepare, loaderOptions, type ContactList, type Prepared, type PrepareSource } from './prepare.js';
export { audience, type AudienceItem, type AudienceOptions } from './audience.js';
export { planJob, type PlanResult } from './plan-job.js';
export { percent, type PlanPass } from './plan-pass.js';
export { runJob, type RunJobOptions, type RunOutcome } from './run-job.js';
export { clientSettings } from './client-settings.js';
export { outcomeJson } from './summary-file.js';
export { jobStatus, jobReport, contactsNotDone, type JobStatus } from './job-report.js';
