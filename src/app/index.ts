/** The campaign use-cases: what the command line calls, and what other programs import. */
export { AppError, type AppErrorKind } from './errors.js';
export { platformError, onPlatform } from './platform-errors.js';
export { prepare, type Prepared, type PrepareSource } from './prepare/index.js';
export { loadJobIn, loaderOptions, type ContactList, describePlace, type JobPlace } from './load/index.js';
export { audience, type AudienceItem, type AudienceOptions } from './audience/index.js';
export { planJob, type PlanResult, estimateSend, requestsPerSend, type EstimateWarning, type SendEstimate, percent, type PlanPass } from './plan/index.js';
export { parseStartAt, readStartAt, startAtProblem, type DateOrder, type StartAt, messageKey } from '../job/index.js';
export {
  runJob,
  type RunJobOptions,
  type RunOutcome,
  runUntilDone,
  type RunUntilDoneOptions,
  type RunUntilDoneResult,
  type WaitInfo,
  testSend,
  type TestSend,
  type TestSendOptions,
  type TestSendResult,
  clientSettings,
  outcomeJson,
  type PoolNumberFigures,
  decideIfDue,
} from './run/index.js';
export { stopJob, stopJobFile, type StopJobOptions, type StopOutcome, importStateFolder, type StoreImportOutcome } from './store/index.js';
export {
  jobStatus,
  jobReport,
  contactsNotDone,
  type JobStatus,
  type JobReportOptions,
  type ReportColumnsOption,
  type NumberStatus,
  showContact,
  nextStep,
  type ContactStory,
  jobZone,
  zoneOfJob,
} from './report/index.js';
export {
  trackJob,
  TRACK_INTERVAL_MS,
  type PassStart,
  type TrackJobOptions,
  type TrackOutcome,
  type TrackPass,
  reconcileJob,
  type ReconcileJobOptions,
  type ReconcileJobOutcome,
  SETTLE_MINUTES,
  type ReconcileOutcome,
  type ReadbackOptions,
} from './track/index.js';
export { funnelOf, ofSent, type Funnel, type FunnelFailure } from './delivery/index.js';
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
} from './suppression/index.js';
export {
  messagingRoom,
  type MessagingRoom,
  messagedByOtherJobsJson,
  type MessagedByOtherJobs,
} from './account/index.js';
export { type AudienceJob, type FollowUpView, earlierOutcome, selectFollowUp, type EarlierOutcome, type FollowUpSelection } from './follow-up/index.js';
export {
  armFor,
  armTallies,
  decideExperiment,
  decisionTime,
  experimentView,
  type ArmTally,
  type ExperimentDecision,
  type ExperimentView,
  decideArms,
  normalCdf,
  rateWithInterval,
  twoProportionPValue,
} from './experiment/index.js';
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
