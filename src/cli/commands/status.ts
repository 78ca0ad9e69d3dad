import type { Command } from 'commander';
import { jobStatus } from '../../app/index.js';
import { formatSummary } from '../../report/index.js';
import { outcomeExitCode } from '../exit.js';
import { formatDeferred, formatRoom } from '../format/deferred.js';
import { formatFunnel } from '../format/funnel.js';
import { storeFor } from '../state.js';

interface StatusFlags {
  stateDir?: string;
  json?: boolean;
}

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description("Counts by status from the job's checkpoint, with the funnel sent → delivered → read → replied (does not contact the platform)")
    .argument('<job>', 'job file (JSON)')
    .option('--state-dir <dir>', 'state folder (default $OUTREACH_STATE_DIR, or .outreach beside the job file)')
    .option('--json', 'print the counts as one JSON object')
    .action(async (jobPath: string, flags: StatusFlags) => {
      const status = await jobStatus(jobPath, { store: storeFor(flags.stateDir, jobPath) });
      if (status.listProblem) process.stderr.write(`outreach: contacts not counted as pending: ${status.listProblem}\n`);
      const { summary, replies, deferred, messaging, funnel } = status;
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ job: status.job, ...summary, replies, deferred, messaging, funnel }, null, 2)}\n`);
      } else {
        const waiting = formatDeferred(deferred, Date.now());
        process.stdout.write(
          `status of ${status.job}\n${formatSummary(summary).trimEnd()}\n  replies ${replies.count} of ${summary.byStatus.sent} sent (${(replies.rate * 100).toFixed(1)}%)\n` +
            (waiting ? `  ${waiting}\n` : '') +
            `  ${formatRoom(messaging, Date.now())}\n` +
            formatFunnel(funnel),
        );
      }
      process.exitCode = outcomeExitCode(status);
    });
}
