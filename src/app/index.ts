/** The campaign use-cases: what the command line calls, and what other programs import. */
export { AppError, type AppErrorKind } from './errors.js';
export { platformError, onPlatform } from './platform-errors.js';
export { prepare, loaderOptions, type ContactList, type Prepared, type PrepareSource } from './prepare.js';
export { audience, type AudienceItem, type AudienceOptions } from './audience.js';
export { planJob, type PlanResult } from './plan-job.js';
export { percent, type PlanPass } from './plan-pass.js';
export { runJob, type RunJobOptions, type RunOutcome } from './run-job.js';
export { outcomeJson } from './summary-file.js';
export { jobStatus, jobReport, contactsNotDone, type JobStatus, type JobReportOptions } from './job-report.js';
export { trackJob, TRACK_INTERVAL_MS, type TrackJobOptions, type TrackOutcome } from './track-job.js';
export { reconcileJob, type ReconcileJobOptions, type ReconcileJobOutcome } from './reconcile-job.js';
export { SETTLE_MINUTES, type ReconcileOutcome } from './reconcile.js';
export type { ReadbackOptions } from './readback.js';
export { showContact, nextStep, type ContactStory } from './show-contact.js';
export { funnelOf, ofSent, type Funnel, type FunnelFailure } from './funnel.js';
export type { TrackPass } from './track.js';
export type { ReportColumnsOption } from './report-output.js';
