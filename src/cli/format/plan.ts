import { describePlace, messagedByOtherJobsJson, type PlanResult } from '../../app/index.js';
import { count, percent } from '../../locale/people.js';
import { estimateJson, formatEstimate } from './estimate.js';
import { formatDeferred } from './deferred.js';
import { followUpJson, formatFollowUp } from './follow-up.js';
import { formatMessagedByOtherJobs } from './other-jobs.js';
import { formatTime, readers, type Readers } from './time.js';

/** The plan as one JSON object (`plan --json`). */
export function planJson(plan: PlanResult) {
  return {
    job: plan.job,
    channel: plan.channel,
    files: plan.files,
    rows: plan.rows,
    ...(plan.notTaken !== undefined && { not_followed_up: plan.notTaken }),
    contacts: plan.contacts,
    rejected: plan.rejects.length,
    rejected_by_reason: plan.rejectedByReason,
    planned_by_action: plan.byAction,
    examples: plan.examples,
    ...(plan.zoneFallbacks && { default_timezone_contacts: plan.zoneFallbacks.count }),
    warnings: [...plan.preflightWarnings, ...plan.loaderWarnings],
    rejects_file: plan.rejectsFile,
    would_send_now: plan.wouldSendNow,
    deferred: plan.deferred.map((g) => ({ reason: g.reason, count: g.count, not_before: g.notBefore, ...(g.zone !== undefined && { zone: g.zone }) })),
    ...(plan.contentChanges !== undefined && { content_changes: plan.contentChanges }),
    ...(plan.continuedFrom && { continues_job_started_from: plan.continuedFrom }),
    by_country: plan.byCountry,
    ...(plan.byZone && { by_zone: plan.byZone }),
    ...(plan.startAt && { start_at: startAtJson(plan.startAt) }),
    ...(plan.byNumber && { by_number: plan.byNumber, pool_seconds: plan.poolSeconds }),
    ...(Object.keys(plan.byVariant).length > 0 && { by_variant: plan.byVariant }),
    ...(plan.already && { already: plan.already }),
    messaged_by_other_jobs: messagedByOtherJobsJson(plan.messagedByOtherJobs),
    estimate: estimateJson(plan.estimate),
    ...(plan.followUp && { follow_up: followUpJson(plan.followUp) }),
  };
}

/** The plan for people. */
export function formatPlan(plan: PlanResult, r: Readers): string {
  const p = readers(r);
  const pad = (n: number) => count(p, n).padStart(6);
  const n = (x: number) => count(p, x);
  const { channel } = plan;
  const lines: string[] = [];
  const named = (ch: typeof channel) => `${ch.id} (${ch.type}${ch.name ? `, ${ch.name}` : ''})`;
  lines.push(`plan for job ${plan.job}: ${plan.pool ? `a pool of ${plan.pool.length} numbers, ${plan.pool.map(named).join(', ')}` : `channel ${named(channel)}`}`);
  if (plan.contentChanges !== undefined) {
    lines.push(`  warning: what the job sends changed since this job's checkpoint started (${plan.contentChanges}); this plan previews the new content, which \`run --force-changed\` sends to the contacts not yet sent`);
  }
  if (plan.continuedFrom) lines.push(`  continuing job ${plan.job} started from ${describePlace(plan.continuedFrom)}: the same name and message are the same job (nobody it sent is sent again)`);
  if (plan.followUp) lines.push(...formatFollowUp(plan.followUp, plan.now, r));
  for (const w of [...plan.preflightWarnings, ...plan.loaderWarnings]) lines.push(`  warning: ${w}`);
  lines.push(`  rows read        ${pad(plan.rows)}  from ${plan.files.length} file${plan.files.length === 1 ? '' : 's'}${plan.followUp ? ` (job ${plan.followUp.job}'s list)` : ''}`);
  if (plan.notTaken !== undefined) lines.push(`  not followed up  ${pad(plan.notTaken)}  contacts of ${plan.followUp?.job ?? 'the earlier job'} in no outcome of follow_up.who, or too recent, and its own rejects`);
  lines.push(`  rejected         ${pad(plan.rejects.length)}  ${plan.rows ? percent(p, plan.rejects.length / plan.rows) : ''}`);
  for (const [reason, n] of sorted(plan.rejectedByReason)) lines.push(`    ${reason.padEnd(30)} ${pad(n)}`);
  lines.push(`  planned          ${pad(plan.contacts)}`);
  for (const [action, n] of sorted(plan.byAction)) lines.push(`    ${action.padEnd(30)} ${pad(n)}`);
  const countries = sorted(plan.byCountry);
  lines.push(`  by country       ${countries.length > 0 ? countries.map(([country, k]) => `${country} ${n(k)}`).join(', ') : 'none: no contact is planned'}`);
  if (plan.byZone) lines.push(`  by zone          ${sorted(plan.byZone).map(([zone, k]) => `${zone} ${n(k)}`).join(', ') || 'none: no contact is planned'}`);
  const start = plan.startAt && formatStartAt(plan.startAt, r, plan.now);
  if (start) lines.push(`  start_at         ${start}`);
  if (plan.byNumber) {
    const split = Object.entries(plan.byNumber).map(([id, k]) => `${id} ${n(k)}`).join(', ');
    lines.push(`  by number        ${split}; about ${n(plan.poolSeconds ?? 0)} s at the pool's rates`);
  }
  if (Object.keys(plan.byVariant).length > 0) {
    lines.push('  by variant');
    for (const [variant, counts] of Object.entries(plan.byVariant)) {
      lines.push(`    ${variant.padEnd(30)} ${sorted(counts).map(([action, k]) => `${action} ${n(k)}`).join(', ')}`);
    }
  }
  if (plan.already) {
    const a = plan.already;
    lines.push(
      `  already          sent ${n(a.sent)}, skipped ${n(a.skipped)}, failed ${n(a.failed)}, in doubt ${n(a.in_doubt)}, deferred ${n(a.deferred)} (earlier runs); would send ${n(plan.wouldSendNow)} now`,
    );
  } else {
    lines.push(`  would send now   ${pad(plan.wouldSendNow)}`);
  }
  lines.push(...formatEstimate(plan.estimate, r));
  const deferred = formatDeferred(plan.deferred, plan.now, r);
  if (deferred !== undefined) lines.push(`  ${deferred}; \`outreach run\` then sends them (or \`run --wait\`)`);
  const others = formatMessagedByOtherJobs(plan.messagedByOtherJobs, r, plan.now);
  if (others) lines.push(`  ${others}`);
  if (plan.zoneFallbacks) {
    const { count: fell, zone } = plan.zoneFallbacks;
    lines.push(`  ${n(fell)} contact${fell === 1 ? '' : 's'} fell back to default_timezone ${zone} (no timezone cell, and a number whose numbering plan names several zones or none)`);
  }
  if (plan.examples.length > 0) {
    lines.push('  examples');
    for (const e of plan.examples) lines.push(`    ${e.phone} (line ${e.line}) ${e.variant ? `[${e.variant}] ` : ''}${e.action}: ${e.message}`);
  }
  lines.push(`  rejects written to ${plan.rejectsFile}`);
  lines.push('nothing was sent: this is a dry run');
  return `${lines.join('\n')}\n`;
}

/** When the job starts: one instant for everyone, or the wall-clock time in each contact's zone, with the zones that start first and last. */
function formatStartAt(start: NonNullable<PlanResult['startAt']>, r: Readers, now: number): string {
  if (start.kind === 'instant') return `${formatTime(start.at, r, now)}: one instant for everyone (it names its offset)`;
  const wall = start.text.replace('T', ' ').replace(/:00$/, '');
  const head = `${wall} in each contact's own zone (it names no offset)`;
  const { first, last } = start;
  if (first === undefined || last === undefined) return head;
  if (first.at === last.at) return `${head}: all at ${formatTime(first.at, r, now)}`;
  return `${head}: the first zone, ${first.zone}, starts at ${formatTime(first.at, r, now)}; the last, ${last.zone}, at ${formatTime(last.at, r, now)}`;
}

function startAtJson(start: NonNullable<PlanResult['startAt']>) {
  if (start.kind === 'instant') return { kind: start.kind, at: new Date(start.at).toISOString() };
  const zoneAt = (z: { zone: string; at: number } | undefined) => (z === undefined ? null : { zone: z.zone, at: new Date(z.at).toISOString() });
  return { kind: start.kind, local_time: start.text, first: zoneAt(start.first), last: zoneAt(start.last) };
}

function sorted(counts: Record<string, number>): Array<[string, number]> {
  return Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
