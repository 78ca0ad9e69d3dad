import type { Command } from 'commander';
import { formatSummary, summarise } from '../../report/index.js';
import { ExitCode } from '../exit.js';
import { loadJobReport } from '../job-report.js';

interface StatusFlags {
  stateDir?: string;
  json?: boolean;
}

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description("Counts by status from the job's checkpoint, with replies (does not contact the platform)")
    .argument('<job>', 'job file (JSON)')
    .option('--state-dir <dir>', 'state folder (default $OUTREACH_STATE_DIR or .outreach)')
    .option('--json', 'print the counts as one JSON object')
    .action(async (jobPath: string, flags: StatusFlags) => {
      const { job, states, rows } = await loadJobReport(jobPath, flags.stateDir);
      const replies = rows.filter((r) => r.replied_at).length;
      const pending = rows.filter((r) => r.status === 'pending').length;
      const summary = summarise(states, { pending });
      const sent = summary.byStatus.sent;
      const rate = sent > 0 ? replies / sent : 0;
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ job: job.name, ...summary, replies: { count: replies, rate } }, null, 2)}\n`);
      } else {
        process.stdout.write(
          `status of ${job.name}\n${formatSummary(summary).trimEnd()}\n  replies ${replies} of ${sent} sent (${(rate * 100).toFixed(1)}%)\n`,
        );
      }
      const bad = summary.byStatus.failed + summary.byStatus.in_doubt + summary.byStatus.pending;
      process.exitCode = bad > 0 ? ExitCode.failed : ExitCode.ok;
    });
}
