import { messagedByOtherJobsJson, percent, type PlanResult } from '../../app/index.js';
import { estimateJson, formatEstimate } from './estimate.js';
import { formatDeferred } from './deferred.js';
import { followUpJson, formatFollowUp } from './follow-up.js';
import { formatMessagedByOtherJobs } from './other-jobs.js';

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
    by_country: plan.byCountry,
    ...(plan.byNumber && { by_number: plan.byNumber, pool_seconds: plan.poolSeconds }),
    ...(Object.keys(plan.byVariant).length > 0 && { by_variant: plan.byVariant }),
    ...(plan.already && { already: plan.already }),
    messaged_by_other_jobs: messagedByOtherJobsJson(plan.messagedByOtherJobs),
    estimate: estimateJson(plan.estimate),
    ...(plan.followUp && { follow_up: followUpJson(plan.followUp) }),
  };
}

/** The plan for people. */
export function formatPlan(plan: PlanResult, zone: string): string {
  const { channel } = plan;
  const lines: string[] = [];
  const named = (ch: typeof channel) => `${ch.id} (${ch.type}${ch.name ? `, ${ch.name}` : ''})`;
  lines.push(`plan for job ${plan.job}: ${plan.pool ? `a pool of ${plan.pool.length} numbers, ${plan.pool.map(named).join(', ')}` : `channel ${named(channel)}`}`);
  if (plan.contentChanges !== undefined) {
    lines.push(`  warning: what the job sends changed since this job's checkpoint started (${plan.contentChanges}); this plan previews the new content, which \`run --force-changed\` sends to the contacts not yet sent`);
  }
  if (plan.followUp) lines.push(...formatFollowUp(plan.followUp, plan.now, zone));
  for (const w of [...plan.preflightWarnings, ...plan.loaderWarnings]) lines.push(`  warning: ${w}`);
  lines.push(`  rows read        ${pad(plan.rows)}  from ${plan.files.length} file${plan.files.length === 1 ? '' : 's'}${plan.followUp ? ` (job ${plan.followUp.job}'s list)` : ''}`);
  if (plan.notTaken !== undefined) lines.push(`  not followed up  ${pad(plan.notTaken)}  contacts of ${plan.followUp?.job ?? 'the earlier job'} in no outcome of follow_up.who, or too recent, and its own rejects`);
  lines.push(`  rejected         ${pad(plan.rejects.length)}  ${plan.rows ? percent(plan.rejects.length / plan.rows) : ''}`);
  for (const [reason, n] of sorted(plan.rejectedByReason)) lines.push(`    ${reason.padEnd(30)} ${pad(n)}`);
  lines.push(`  planned          ${pad(plan.contacts)}`);
  for (const [action, n] of sorted(plan.byAction)) lines.push(`    ${action.padEnd(30)} ${pad(n)}`);
  const countries = sorted(plan.byCountry);
  lines.push(`  by country       ${countries.length > 0 ? countries.map(([country, n]) => `${country} ${n}`).join(', ') : 'none: no contact is planned'}`);
  if (plan.byNumber) {
    const split = Object.entries(plan.byNumber).map(([id, n]) => `${id} ${n}`).join(', ');
    lines.push(`  by number        ${split}; about ${plan.poolSeconds ?? 0} s at the pool's rates`);
  }
  if (Object.keys(plan.byVariant).length > 0) {
    lines.push('  by variant');
    for (const [variant, counts] of Object.entries(plan.byVariant)) {
      lines.push(`    ${variant.padEnd(30)} ${sorted(counts).map(([action, n]) => `${action} ${n}`).join(', ')}`);
    }
  }
  if (plan.already) {
    const a = plan.already;
    lines.push(
      `  already          sent ${a.sent}, skipped ${a.skipped}, failed ${a.failed}, in doubt ${a.in_doubt}, deferred ${a.deferred} (earlier runs); would send ${plan.wouldSendNow} now`,
    );
  } else {
    lines.push(`  would send now   ${pad(plan.wouldSendNow)}`);
  }
  lines.push(...formatEstimate(plan.estimate, zone));
  const deferred = formatDeferred(plan.deferred, plan.now, zone);
  if (deferred !== undefined) lines.push(`  ${deferred}; \`outreach run\` then sends them (or \`run --wait\`)`);
  const others = formatMessagedByOtherJobs(plan.messagedByOtherJobs, zone, plan.now);
  if (others) lines.push(`  ${others}`);
  if (plan.zoneFallbacks) {
    const { count, zone } = plan.zoneFallbacks;
    lines.push(`  send_window: ${count} contact${count === 1 ? '' : 's'} fell back to default_timezone ${zone} (no timezone cell, and a phone country with several zones)`);
  }
  if (plan.examples.length > 0) {
    lines.push('  examples');
    for (const e of plan.examples) lines.push(`    ${e.phone} (line ${e.line}) ${e.variant ? `[${e.variant}] ` : ''}${e.action}: ${e.message}`);
  }
  lines.push(`  rejects written to ${plan.rejectsFile}`);
  lines.push('nothing was sent: this is a dry run');
  return `${lines.join('\n')}\n`;
}

function sorted(counts: Record<string, number>): Array<[string, number]> {
  return Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function pad(n: number): string {
  return String(n).padStart(6);
}
