import type { Contact } from '../../contacts/types.js';
import type { Job } from '../../job/index.js';
import type { PlanContext } from '../context.js';
import type { Action, ChannelInfo } from '../types.js';

/** The parts of a job the planner reads. */
export type PlanJob = Pick<Job, 'message' | 'window' | 'after_send'>;

/** What every rule sees. */
export interface RuleInput {
  contact: Contact;
  channel: ChannelInfo;
  job: PlanJob;
  context: PlanContext;
}

/**
 * A rule that may keep a contact from being sent now, before any message is chosen: suppression,
 * consent, quiet hours, the messaging budget. Undefined lets the contact through.
 */
export type Gate = (input: RuleInput) => Extract<Action, { kind: 'skip' | 'defer' }> | undefined;

export type RejectAction = Extract<Action, { kind: 'reject' }>;
