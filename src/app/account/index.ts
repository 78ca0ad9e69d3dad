/** The sender's account across jobs, as the store keeps it: the messaging limit's room, other jobs' first messages, a state's id. */
export { messagingRoom, type MessagingRoom } from './messaging-room.js';
export { messagedByOtherJobsJson, OtherJobsTally, protectionOffWarning, repeatMessageWarning, type MessagedByOtherJobs } from './other-jobs.js';
export { newStateId, ownState } from './state-id.js';
