import type { FollowUpView } from '../../app/index.js';
import { count } from '../../locale/people.js';
import { formatTime, readers, type Readers } from './time.js';

/** A follow-up's earlier job, for `plan` and `status`: its contacts by outcome, what the follow-up takes, when it was last tracked. */
export function formatFollowUp(f: FollowUpView, now: number, r: Readers): string[] {
  const p = readers(r);
  const n = (x: number) => count(p, x);
  const tracked = f.lastTrackedAt !== undefined ? `last tracked ${formatTime(Date.parse(f.lastTrackedAt), r, now)}` : f.tracked ? 'tracked' : 'never tracked';
  const o = f.byOutcome;
  const lines = [
    `  follows up ${f.job} (${tracked}): ${n(f.takes)} of its contacts (${f.who.join(', ')}${f.afterHours > 0 ? `, first message at least ${f.afterHours} hours old` : ''})`,
    `    its contacts   not_delivered ${n(o.not_delivered)} (${n(f.notDelivered.failed)} failed to deliver, ${n(f.notDelivered.stillSent)} still only "sent"), delivered_not_read ${n(o.delivered_not_read)}, read_not_replied ${n(o.read_not_replied)}, replied ${n(o.replied)}, failed_retryable ${n(o.failed_retryable)}, sent not tracked ${n(o.not_tracked)}, other ${n(o.other)}`,
  ];
  if (f.tooRecent > 0) lines.push(`    not ${f.afterHours} hours old yet: ${n(f.tooRecent)} (a later run takes them)`);
  return lines;
}

/** The same, for `--json`. */
export function followUpJson(f: FollowUpView) {
  return {
    job: f.job,
    who: f.who,
    after_hours: f.afterHours,
    by_outcome: f.byOutcome,
    not_delivered: { delivery_failed: f.notDelivered.failed, still_sent: f.notDelivered.stillSent },
    takes: f.takes,
    too_recent: f.tooRecent,
    last_tracked_at: f.lastTrackedAt ?? null,
  };
}
