/** The sender's account across jobs, as the store keeps it: the suppression list as the run reads it, the messaging limit's room, the protection rules' lookups, other jobs' first messages, a state's id. */
export { complianceContext, complianceLookups, freshPass, noteDecision, outsideWindow, REFRESH_EVERY_MS, type ComplianceLookups, type OwnState } from './compliance.js';
export { messagingRoom, type MessagingRoom } from './messaging-room.js';
export { messagedByOtherJobsJson, OtherJobsTally, protectionOffWarning, repeatMessageWarning, type MessagedByOtherJobs } from './other-jobs.js';
export { newStateId, ownState } from './state-id.js';
