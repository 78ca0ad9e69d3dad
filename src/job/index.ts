/** The job file: its schema, loading and validation with messages for people, and its message fingerprint. */
export { jobSchema, type Job, type JobInput } from './schema.js';
export type { Message, MessageContent, Variant, VariantWhen } from './message.js';
export { parseJob, type ParseResult } from './parse.js';
export { loadJob, type LoadedJob } from './load.js';
export { resolveContactFiles } from './contact-files.js';
export { JobError } from './errors.js';
export { messageFingerprint, describeChange, canonicalJson } from './fingerprint.js';
export { messageKey, type FilledMessage } from './message-key.js';
export { jobJsonSchema } from './json-schema.js';
export { WEEKDAYS, secondsOfDay, canonicalZone, type SendWindow, type Weekday } from './send-window.js';
export { closest } from './suggest.js';
export { parseStartAt, readStartAt, startAtProblem, startInstant, type DateOrder, type StartAt } from './start-at.js';
export { FOLLOW_UP_OUTCOMES, whoNeedsTracking, type FollowUp, type FollowUpWho } from './follow-up.js';
export { EXPERIMENT_METRICS, type Experiment, type ExperimentMetric } from './experiment.js';
