/** Follow-ups: a follow-up's job completed from its earlier job, what became of the earlier job's contacts, and the links between the two jobs' pages. */
export { followUpJob, type AudienceJob, type FollowUpView } from './earlier-job.js';
export { earlierOutcome, selectFollowUp, type EarlierOutcome, type FollowUpSelection } from './earlier-outcome.js';
export { followUpNumbers, noteFollowUp } from './links.js';
