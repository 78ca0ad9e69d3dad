import { describePlace, type RunOutcome } from '../../app/index.js';
import { count, decimal } from '../../locale/people.js';
import { formatSummary } from '../../report/index.js';
import { formatDeferred } from './deferred.js';
import { formatTime, inZone, readers, type Readers } from './time.js';
import { formatMessagedByOtherJobs } from './other-jobs.js';
import { formatRunNumbers } from './pool.js';
import { nextSteps } from './next-steps.js';

/** The end of a run for people: what happened, the whole job's counts, and where the files are; figures and times as `r` reads them. */
export function formatRunEnd(outcome: RunOutcome, r: Readers, now: number = Date.now()): string {
  const p = readers(r);
  const seconds = p.locale === undefined ? (outcome.thisRun.durationMs / 1000).toFixed(1) : decimal(p, outcome.thisRun.durationMs / 1000);
  const how = !outcome.stopped ? 'done in' : outcome.stopped.reason === 'interrupted' ? 'interrupted after' : 'stopped after';
  const first = outcome.firstRun && outcome.command === 'resume' ? ' (the job had never run: this was its first run)' : '';
  const lines = [`${outcome.command} of ${outcome.job} ${how} ${seconds} s${first}`, formatSummary(outcome.summary, p.locale).trimEnd()];
  if (outcome.numbers) lines.push(...formatRunNumbers(outcome.numbers, r));
  if (outcome.tookOverFrom) lines.splice(1, 0, `  took the job over from pid ${outcome.tookOverFrom.pid} on host ${outcome.tookOverFrom.host}, whose hold had ended`);
  if (outcome.continuedFrom) lines.splice(1, 0, `  continuing job ${outcome.job} started from ${describePlace(outcome.continuedFrom)}`);
  for (const line of nextSteps(outcome.summary.byStatus, outcome.pending, p)) lines.push(`  ${line}`);
  const deferred = formatDeferred(outcome.deferred, now, r);
  if (deferred) lines.push(`  ${deferred}; \`outreach run\` again then sends them (or \`run --wait\`)`);
  const missed = outcome.missedWindows;
  if (missed) {
    const opened = formatTime(Date.parse(missed.openedAt), inZone(r, missed.zone), now);
    lines.push(`  ${count(p, missed.count)} deferred ${missed.reason} again: their window opened ${opened} and closed before this run; schedule the run inside the send window (every hour does) or use \`run --wait\``);
  }
  const others = formatMessagedByOtherJobs(outcome.messagedByOtherJobs, r, now);
  if (others) lines.push(`  ${others}`);
  if (outcome.concurrencyBound) lines.push(`  ${outcome.concurrencyBound}`);
  if (outcome.listIncomplete) lines.push(`  ${outcome.listIncomplete}`);
  lines.push(`  report:  ${outcome.files.report}`);
  lines.push(`  rejects: ${outcome.files.rejects} (${count(p, outcome.rejected)} row${outcome.rejected === 1 ? '' : 's'})`);
  return `${lines.join('\n')}\n`;
}
