/**
 * outreach as a library: the campaign use-cases, the job loader, the platform client, the storage
 * port with its file backend, and the platform simulator.
 *
 *   import { createApiClient, createFileStore, prepare, runJob } from 'outreach';
 */
export {
  AppError,
  audience,
  clientSettings,
  contactsNotDone,
  jobReport,
  jobStatus,
  loaderOptions,
  outcomeJson,
  planJob,
  platformError,
  prepare,
  runJob,
  runUntilDone,
  suppressPhones,
  unsuppressPhones,
  importSuppressions,
  listSuppressions,
  messagingRoom,
  trackJob,
  reconcileJob,
  showContact,
  type AppErrorKind,
  type AudienceItem,
  type AudienceOptions,
  type JobStatus,
  type PlanPass,
  type PlanResult,
  type Prepared,
  type PrepareSource,
  type RunJobOptions,
  type RunOutcome,
  type RunUntilDoneOptions,
  type RunUntilDoneResult,
  type WaitInfo,
  type MessagingRoom,
  type MessagedByOtherJobs,
  type TrackJobOptions,
  type TrackOutcome,
  type ReconcileJobOptions,
  type ReconcileJobOutcome,
  type ContactStory,
  type Funnel,
} from './app/index.js';
export { loadJob, parseJob, JobError, type Job, type JobInput, type LoadedJob } from './job/index.js';
export { createApiClient, type ApiClient, type ApiClientOptions } from './api/index.js';
export {
  createFileStore,
  type StateStore,
  type JobStore,
  type JobView,
  type JobFiles,
  type ContactState,
  type ContactStatus,
  type SuppressionEntry,
  type SuppressionInput,
  type SuppressionSource,
  type SuppressionList,
  type Ledger,
  type LedgerEntry,
  type LedgerMessage,
} from './checkpoint/backends.js';
export type { Contact, Reject } from './contacts/index.js';
export type { Action, ChannelInfo, PlanContext } from './plan/index.js';
export type { ProviderClass, RetryMode, RunStats, StopReason } from './run/index.js';
export type { FailureClass, Summary } from './report/index.js';
export { startSimulator, type RunningSimulator, type SimOptions, type SimFaults } from './sim/index.js';
