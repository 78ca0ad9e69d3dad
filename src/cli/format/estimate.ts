import type { EstimateWarning, SendEstimate } from '../../app/index.js';
import { formatDuration } from '../../report/index.js';
import { formatTime } from './time.js';

/**
 * The plan's lines on time: "time at the rate   25h 00m 00s: 900000 requests (300000 contacts × 3:
 * the first message and 2 after-send steps) at 10/s; ends about Sat 01:00 UTC if started now", then
 * one warning per window that closes before the end and for contacts waiting for the messaging limit.
 */
export function formatEstimate(e: SendEstimate, zone: string): string[] {
  if (e.contacts === 0 && e.owedSteps === 0) return [];
  const perContact = e.contacts > 0 ? (e.requests - e.owedSteps) / e.contacts : 0;
  const steps = perContact - 1;
  const first =
    e.contacts === 0
      ? ''
      : Number.isInteger(perContact)
        ? `${e.contacts} contacts × ${perContact}: the first message${steps > 0 ? ` and ${steps} after-send step${steps === 1 ? '' : 's'}` : ''}`
        : `${e.contacts} contacts: each first message and its after-send steps`;
  const owed = e.owedSteps > 0 ? `${e.owedSteps} after-send step${e.owedSteps === 1 ? '' : 's'} owed by contacts sent earlier` : '';
  const what = [first, owed].filter((x) => x !== '').join('; and ');
  const lines = [`  time at the rate   ${formatDuration(e.durationMs)}: ${e.requests} requests (${what}) at ${e.perSecond >= 1 ? Math.round(e.perSecond * 10) / 10 : e.perSecond}/s; ends about ${formatTime(e.endsAt, zone, e.startsAt)} if started now`];
  for (const w of e.warnings) lines.push(`  warning: ${warningText(w, zone, e.startsAt)}`);
  return lines;
}

function warningText(w: EstimateWarning, zone: string, now: number): string {
  switch (w.kind) {
    case 'quiet_hours':
      return `the send window closes at ${formatTime(w.closesAt, w.zone, now)} before the send ends: the contacts left then wait for its next opening (\`run --wait\` sends them then)`;
    case 'messaging_limit': {
      const frees = w.freesAt !== undefined ? `, the first at ${formatTime(Date.parse(w.freesAt), zone, now)}` : '';
      return `the messaging limit (limits.daily_unique_recipients ${w.limit}) has room for ${w.room} more recipients now: ${w.waiting} contacts wait for room${frees}`;
    }
    default: {
      const never: never = w;
      return never;
    }
  }
}

/** The estimate in `plan --json`. */
export function estimateJson(e: SendEstimate) {
  return {
    contacts: e.contacts,
    requests: e.requests,
    owed_steps: e.owedSteps,
    per_second: e.perSecond,
    duration_s: Math.round(e.durationMs / 1000),
    ends_at: new Date(e.endsAt).toISOString(),
    warnings: e.warnings.map((w) =>
      w.kind === 'quiet_hours' ? { kind: w.kind, zone: w.zone, closes_at: new Date(w.closesAt).toISOString() } : { kind: w.kind, limit: w.limit, room: w.room, waiting: w.waiting, ...(w.freesAt !== undefined && { frees_at: w.freesAt }) },
    ),
  };
}
