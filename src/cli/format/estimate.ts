import type { EstimateWarning, SendEstimate } from '../../app/index.js';
import { formatDuration } from '../../report/index.js';
import { count, decimal } from '../../locale/people.js';
import { formatTime, readers, type Readers } from './time.js';

/**
 * The plan's lines on time: "time at the rate   25h 00m 00s: 900000 requests (300000 contacts × 3:
 * the first message and 2 after-send steps) at 10/s; ends about Sat 01:00 UTC if started now", then
 * one warning per window that closes before the end and for contacts waiting for the messaging limit.
 */
export function formatEstimate(e: SendEstimate, r: Readers): string[] {
  const p = readers(r);
  if (e.contacts === 0 && e.owedSteps === 0) return [];
  const perContact = e.contacts > 0 ? (e.requests - e.owedSteps) / e.contacts : 0;
  const steps = perContact - 1;
  const first =
    e.contacts === 0
      ? ''
      : Number.isInteger(perContact)
        ? `${count(p, e.contacts)} contacts × ${perContact}: the first message${steps > 0 ? ` and ${steps} after-send step${steps === 1 ? '' : 's'}` : ''}`
        : `${count(p, e.contacts)} contacts: each first message and its after-send steps`;
  const owed = e.owedSteps > 0 ? `${count(p, e.owedSteps)} after-send step${e.owedSteps === 1 ? '' : 's'} owed by contacts sent earlier` : '';
  const what = [first, owed].filter((x) => x !== '').join('; and ');
  const lines = [`  time at the rate   ${formatDuration(e.durationMs, p.locale)}: ${count(p, e.requests)} requests (${what}) at ${e.perSecond >= 1 ? decimal(p, e.perSecond) : decimal(p, e.perSecond, 6)}/s; ends about ${formatTime(e.endsAt, r, e.startsAt)} if started now`];
  for (const w of e.warnings) lines.push(`  warning: ${warningText(w, r, e.startsAt)}`);
  return lines;
}

function warningText(w: EstimateWarning, r: Readers, now: number): string {
  const p = readers(r);
  switch (w.kind) {
    case 'quiet_hours':
      return `the send window closes at ${formatTime(w.closesAt, { ...p, zone: w.zone }, now)} before the send ends: the contacts left then wait for its next opening (\`run --wait\` sends them then)`;
    case 'messaging_limit': {
      const frees = w.freesAt !== undefined ? `, the first at ${formatTime(Date.parse(w.freesAt), r, now)}` : '';
      return `the messaging limit (limits.daily_unique_recipients ${count(p, w.limit)}) has room for ${count(p, w.room)} more recipients now: ${count(p, w.waiting)} contacts wait for room${frees}`;
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
