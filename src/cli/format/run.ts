import type { RunOutcome } from '../../app/index.js';
import { formatSummary } from '../../report/index.js';

/** The end of a run for people: what happened, the whole job's counts, and where the files are. */
export function formatRunEnd(outcome: RunOutcome): string {
  const lines = [`${outcome.command} of ${outcome.job} done in ${(outcome.thisRun.durationMs / 1000).toFixed(1)} s`, formatSummary(outcome.summary).trimEnd()];
  if (outcome.pending > 0) lines.push(`  pending (not reached): ${outcome.pending}; run \`outreach run\` again to continue`);
  if (outcome.concurrencyBound) lines.push(`  ${outcome.concurrencyBound}`);
  lines.push(`  report:  ${outcome.files.report}`);
  lines.push(`  rejects: ${outcome.files.rejects} (${outcome.rejected} rows)`);
  return `${lines.join('\n')}\n`;
}
