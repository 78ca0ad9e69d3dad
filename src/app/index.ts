/** The campaign use-cases: what the command line calls, and what other programs import. */
export { AppError, type AppErrorKind } from './errors.js';
export { platformError, onPlatform } from './platform-errors.js';
export { prepare, type Prepared, type PrepareSource } from './prepare.js';
export { loadJobIn, loaderOptions, type ContactList } from './job-loading.js';
export { audience, type AudienceItem, type AudienceOptions } from './audience.js';
export { planJob, type PlanResult } from './plan-job.js';
export { parseStartAt, readStartAt, startAtProblem, type DateOrder, type StartAt } from '../job/index.js';
export { stopJob, stopJobFile, type StopJobOptions, type StopOutcome } from './stop-job.js';
export { testSend, type TestSend, type TestSendOptions, type TestSendResult } from './test-send.js';
export { estimateSend, requestsPerSend, type EstimateWarning, type SendEstimate } from './plan-estimate.js';
export { percent, type PlanPass } from './plan-pass.js';
export { runJob } from './run-job.js';
export type { RunJobOptions } from './run-options.js';
export type { RunOutcome } from './run-outcome.js';
export { describePlace, type JobPlace } from './content-guard.js';
export { clientSettings } from './client-settings.js';
export { outcomeJson } from './summary-file.js';
export { jobStatus, jobReport, contactsNotDone, type JobStatus, type JobReportOptions } from './job-report.js';
export type { NumberStatus } from './pool-status.js';
export type { PoolNumberFigures } from './sender-pool.js';
export { trackJob, TRACK_INTERVAL_MS, type PassStart, type TrackJobOptions, type TrackOutcome } from './track-job.js';
export { reconcileJob, type ReconcileJobOptions, type ReconcileJobOutcome } from './reconcile-job.js';
export { SETTLE_MINUTES, type ReconcileOutcome } from './reconcile.js';
export type { ReadbackOptions } from './readback.js';
export { showContact, nextStep, type ContactStory } from './show-contact.js';
export { funnelOf, ofSent, type Funnel, type FunnelFailure } from './funnel.js';
export type { TrackPass } from './track.js';
export type { ReportColumnsOption } from './report-output.js';
export {
  suppressPhones,
  unsuppressPhones,
  importSuppressions,
  listSuppressions,
  suppressionAccount,
  type SuppressionAccount,
  type SuppressOptions,
  type SuppressOutcome,
  type ImportOutcome,
} from './suppression.js';
export { messagingRoom, type MessagingRoom } from './messaging-room.js';
export { messagedByOtherJobsJson, type MessagedByOtherJobs } from './other-jobs.js';
export { runUntilDone, type RunUntilDoneOptions, type RunUntilDoneResult, type WaitInfo } from './run-until-done.js';
export { importStateFolder, type StoreImportOutcome } from './store-import.js';
export type { AudienceJob, FollowUpView } from './follow-up-job.js';
export { earlierOutcome, selectFollowUp, type EarlierOutcome, type FollowUpSelection } from './follow-up-outcome.js';
export { armFor, armTallies, decideExperiment, decisionTime, experimentView, type ArmTally, type ExperimentDecision, type ExperimentView } from './experiment.js';
export { decideIfDue } from './experiment-decide.js';
export { decideArms, normalCdf, rateWithInterval, twoProportionPValue } from './experiment-stats.js';
export { messageKey } from '../job/index.js';
export { jobZone, zoneOfJob } from './job-zone.js';
export {
  storeWatch,
  companyRooms,
  RECIPIENT_STATUSES,
  isRecipientStatus,
  recipientPage,
  recipientsCsv,
  type CompanyRoom,
  type JobFigures,
  type JobPhase,
  type JobRate,
  type JobRows,
  type RecipientFilter,
  type RecipientPage,
  type StoreWatch,
} from './watch/index.js';
