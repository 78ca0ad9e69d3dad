import type { ContactState } from '../../checkpoint/index.js';
import type { FollowUp, FollowUpWho } from '../../job/index.js';

/**
 * What became of a contact of an earlier job, as a follow-up reads it: one of the outcomes `who`
 * may name, or `not_tracked` (sent, and `track` never read its message), or `other` (failed for
 * good, skipped, deferred, pending, in doubt). Pure.
 */
export type EarlierOutcome = FollowUpWho | 'not_tracked' | 'other';

/** Failures that never pass: the number cannot receive, the person said stop. */
const FOR_GOOD = new Set(['undeliverable', 'opted_out']);

export function earlierOutcome(state: ContactState, repliedAt: string | undefined): EarlierOutcome {
  if (state.status === 'failed') return state.retryable && !FOR_GOOD.has(state.errorClass ?? '') ? 'failed_retryable' : 'other';
  if (state.status !== 'sent') return 'other';
  if (repliedAt !== undefined) return 'replied';
  switch (state.delivery?.status) {
    case undefined:
      return 'not_tracked';
    case 'read':
      return 'read_not_replied';
    case 'delivered':
      return 'delivered_not_read';
    default:
      return 'not_delivered';
  }
}

/** How many of the earlier job's contacts are in each outcome, and the phones the follow-up takes. */
export interface FollowUpSelection {
  byOutcome: Record<EarlierOutcome, number>;
  /** Phones the follow-up takes: in one of `who`, first message old enough; and those it already has a state for. */
  phones: Set<string>;
  /** Of the earlier job's contacts in one of `who`, how many are not old enough yet (a later run takes them). */
  tooRecent: number;
  /**
   * `not_delivered` told apart: the messages whose delivery failed (what the job's funnel calls not
   * delivered) and those still only "sent" (accepted, no delivery read back yet).
   */
  notDelivered: { failed: number; stillSent: number };
}

const HOUR_MS = 3_600_000;

/**
 * The follow-up's audience from the earlier job's states at `now`. A contact the follow-up already
 * handled stays in it (a rerun counts it as done, the report keeps it), whatever track read since. Pure.
 */
export function selectFollowUp(
  earlier: Iterable<ContactState>,
  replies: ReadonlyMap<string, string>,
  followUp: Pick<FollowUp, 'who' | 'after_hours'>,
  now: number,
  handled: Iterable<string> = [],
): FollowUpSelection {
  const byOutcome: Record<EarlierOutcome, number> = {
    not_delivered: 0,
    delivered_not_read: 0,
    read_not_replied: 0,
    replied: 0,
    failed_retryable: 0,
    not_tracked: 0,
    other: 0,
  };
  const wanted = new Set<EarlierOutcome>(followUp.who);
  const phones = new Set<string>(handled);
  let tooRecent = 0;
  const notDelivered = { failed: 0, stillSent: 0 };
  for (const state of earlier) {
    const outcome = earlierOutcome(state, replies.get(state.phone));
    byOutcome[outcome] += 1;
    if (outcome === 'not_delivered' && state.status === 'sent') {
      if (state.delivery?.status === 'failed') notDelivered.failed += 1;
      else notDelivered.stillSent += 1;
    }
    if (!wanted.has(outcome)) continue;
    const first = state.status === 'sent' ? state.sentAt : state.updatedAt;
    const age = first === undefined ? Infinity : now - Date.parse(first);
    if (age >= followUp.after_hours * HOUR_MS) phones.add(state.phone);
    else if (!phones.has(state.phone)) tooRecent += 1;
  }
  return { byOutcome, phones, tooRecent, notDelivered };
}
