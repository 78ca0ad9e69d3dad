import type { FollowUpView } from '../../app/index.js';
import { formatTime } from './time.js';

/** A follow-up's earlier job, for `plan` and `status`: its contacts by outcome, what the follow-up takes, when it was last tracked. */
export function formatFollowUp(f: FollowUpView, now: number, zone: string): string[] {
  const tracked = f.lastTrackedAt !== undefined ? `last tracked ${formatTime(Date.parse(f.lastTrackedAt), zone, now)}` : f.tracked ? 'tracked' : 'never tracked';
  const o = f.byOutcome;
  const lines = [
    `  follows up ${f.job} (${tracked}): ${f.takes} of its contacts (${f.who.join(', ')}${f.afterHours > 0 ? `, first message at least ${f.afterHours} hours old` : ''})`,
    `    its contacts   not_delivered ${o.not_delivered} (${f.notDelivered.failed} failed to deliver, ${f.notDelivered.stillSent} still only "sent"), delivered_not_read ${o.delivered_not_read}, read_not_replied ${o.read_not_replied}, replied ${o.replied}, failed_retryable ${o.failed_retryable}, sent not tracked ${o.not_tracked}, other ${o.other}`,
  ];
  if (f.tooRecent > 0) lines.push(`    not ${f.afterHours} hours old yet: ${f.tooRecent} (a later run takes them)`);
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
