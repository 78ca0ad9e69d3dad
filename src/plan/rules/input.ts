import type { Contact } from '../../contacts/types.js';
import type { Job, MessageContent } from '../../job/index.js';
import type { PlanContext } from '../context.js';
import type { Action, ChannelInfo } from '../types.js';

/** The parts of a job the planner reads. */
export type PlanJob = Pick<Job, 'message' | 'window' | 'after_send' | 'send_window' | 'limits' | 'require_opt_in'> & Partial<Pick<Job, 'start_at' | 'experiment' | 'default_timezone'>>;

/** What every rule sees: the job with the contact's own message (its variant's, or the job's). */
export interface RuleInput {
  contact: Contact;
  channel: ChannelInfo;
  job: Omit<PlanJob, 'message'> & { message: MessageContent };
  context: PlanContext;
  /** The message the contact would get now, composed once when a rule asks (the rules that need the message itself). */
  composed: () => Action;
}

/**
 * A rule that may keep a contact from being sent now, before any message is chosen: suppression,
 * consent, quiet hours, the messaging budget. Undefined lets the contact through.
 */
export type Gate = (input: RuleInput) => Extract<Action, { kind: 'skip' | 'defer' }> | undefined;

export type RejectAction = Extract<Action, { kind: 'reject' }>;
