/**
 * How many contacts of a job's list got a first message from other jobs of the state folder lately,
 * from which jobs and when: what `plan` and `run` tell a person before a copy of a finished job
 * messages them again (by default they are deferred `recently_messaged`). Counted from the ledger as
 * the plan pass and the send pass read each contact.
 */
import type { LedgerView } from '../../checkpoint/index.js';
import type { Job } from '../../job/index.js';
import type { Action } from '../../plan/index.js';

const HOUR_MS = 3_600_000;
/** The hours looked back when the protection is off (`min_hours_between_messages` 0): its default. */
const HOURS_WHEN_OFF = 24;

export interface MessagedByOtherJobs {
  /** The hours looked back: `limits.min_hours_between_messages`, or 24 when it is 0. */
  hours: number;
  /** False when `limits.min_hours_between_messages` is 0: these contacts are not held back. */
  protectionOn: boolean;
  /** Contacts of the list this pass would take up that got a first message from another job in the last `hours`. */
  contacts: number;
  /** Per other job, most contacts first: how many of them it messaged, and its latest first message to one of them (ISO). */
  byJob: Array<{ job: string; contacts: number; lastAt: string }>;
  /** With the protection on: when the last of them may get a message again (ISO). */
  until?: string;
  /**
   * Contacts of the list this pass would take up that already got this very message from another job of the
   * company (skipped already_sent), and per job how many and its latest such message (ISO).
   */
  sameMessage: { contacts: number; byJob: Array<{ job: string; contacts: number; lastAt: string }> };
}

/** Counts, contact by contact, the first messages other jobs sent them within the job's hours. */
export class OtherJobsTally {
  private contacts = 0;
  private readonly jobs = new Map<string, { contacts: number; lastAt: number }>();
  private readonly same = new Map<string, { contacts: number; lastAt: number }>();
  private sameContacts = 0;
  private until: number | undefined;
  private readonly hours: number;
  private readonly protectionOn: boolean;

  constructor(
    private readonly job: Pick<Job, 'name' | 'limits'>,
    private readonly ledger: LedgerView | undefined,
  ) {
    this.protectionOn = job.limits.min_hours_between_messages > 0;
    this.hours = this.protectionOn ? job.limits.min_hours_between_messages : HOURS_WHEN_OFF;
  }

  /** One contact of the list, read at `now`, and what was decided for it (a contact skipped already_sent counts apart). */
  note(phone: string, now: number, action?: Action): void {
    if (action?.kind === 'skip' && action.earlier !== undefined) {
      this.sameContacts += 1;
      countJob(this.same, action.earlier.job, action.earlier.at);
      return;
    }
    const messages = this.ledger?.messagesSince(phone, now - this.hours * HOUR_MS, { exceptJob: this.job.name }) ?? [];
    if (messages.length === 0) return;
    this.contacts += 1;
    let latest = -Infinity;
    for (const { job, at } of messages) {
      countJob(this.jobs, job, at);
      latest = Math.max(latest, at);
    }
    if (this.protectionOn) this.until = Math.max(this.until ?? -Infinity, latest + this.hours * HOUR_MS);
  }

  result(): MessagedByOtherJobs {
    return {
      hours: this.hours,
      protectionOn: this.protectionOn,
      contacts: this.contacts,
      byJob: byJobOf(this.jobs),
      ...(this.until !== undefined && { until: new Date(this.until).toISOString() }),
      sameMessage: { contacts: this.sameContacts, byJob: byJobOf(this.same) },
    };
  }
}

function countJob(jobs: Map<string, { contacts: number; lastAt: number }>, job: string, at: number): void {
  const seen = jobs.get(job);
  if (seen === undefined) jobs.set(job, { contacts: 1, lastAt: at });
  else {
    seen.contacts += 1;
    seen.lastAt = Math.max(seen.lastAt, at);
  }
}

function byJobOf(jobs: Map<string, { contacts: number; lastAt: number }>): Array<{ job: string; contacts: number; lastAt: string }> {
  return [...jobs]
    .sort((a, b) => b[1].contacts - a[1].contacts || a[0].localeCompare(b[0]))
    .map(([job, j]) => ({ job, contacts: j.contacts, lastAt: new Date(j.lastAt).toISOString() }));
}

/** `plan`'s warning when a job sends its message again to people another job already sent it, or undefined. */
export function repeatMessageWarning(job: Pick<Job, 'limits'>): string | undefined {
  if (!job.limits.repeat_message) return undefined;
  return 'limits.repeat_message is true: a contact another job of this company already sent this very message gets it again; remove the field to skip them (already_sent)';
}

/** `plan`'s warning when the protection is off, or undefined. */
export function protectionOffWarning(job: Pick<Job, 'limits'>): string | undefined {
  if (job.limits.min_hours_between_messages > 0) return undefined;
  return (
    'limits.min_hours_between_messages is 0: a contact that another job of this company just messaged is messaged again; ' +
    'remove the field (24 hours by default) to hold such contacts back'
  );
}

/** The count as JSON (`plan --json`, `run --json`, summary.json). */
export function messagedByOtherJobsJson(m: MessagedByOtherJobs) {
  return {
    hours: m.hours,
    protection_on: m.protectionOn,
    contacts: m.contacts,
    by_job: m.byJob.map((j) => ({ job: j.job, contacts: j.contacts, last_at: j.lastAt })),
    until: m.until ?? null,
    same_message: { contacts: m.sameMessage.contacts, by_job: m.sameMessage.byJob.map((j) => ({ job: j.job, contacts: j.contacts, last_at: j.lastAt })) },
  };
}
