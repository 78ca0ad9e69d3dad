import type { Command } from 'commander';
import { jobStatePaths, readJournal, replay } from '../../checkpoint/index.js';
import { loadJob } from '../../job/index.js';
import { formatSummary, summarise } from '../../report/index.js';
import { resolveStateDir } from '../context.js';
import { CliError, ExitCode } from '../exit.js';
import { jobReportRows, listedContacts } from '../job-report.js';

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
      const loaded = await loadJob(jobPath);
      const { job } = loaded;
      const stateDir = resolveStateDir(flags.stateDir);
      const states = await jobStates(stateDir, job.name);
      const { listed, problem } = await listedContacts(loaded, jobStatePaths(stateDir, job.name).rejects);
      if (problem) process.stderr.write(`outreach: contacts not counted as pending: ${problem}\n`);
      const rows = await jobReportRows(stateDir, states, listed);
      const replies = rows.filter((r) => r.replied_at).length;
      const pending = rows.filter((r) => r.status === 'pending').length;
      const summary = summarise(states, { pending });
      const sent = summary.byStatus.sent ?? 0;
      const out = { job: job.name, ...summary, replies: { count: replies, rate: sent > 0 ? replies / sent : 0 } };
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      } else {
        process.stdout.write(`status of ${job.name}\n${formatSummary(summary).trimEnd()}\n  replies ${replies} of ${sent} sent (${sent > 0 ? ((replies / sent) * 100).toFixed(1) : '0.0'}%)\n`);
      }
      const bad = (summary.byStatus.failed ?? 0) + (summary.byStatus.in_doubt ?? 0) + pending;
      process.exitCode = bad > 0 ? ExitCode.failed : ExitCode.ok;
    });
}

/** Replays the job's checkpoint; a job never run is an error that says to run it. */
export async function jobStates(stateDir: string, jobName: string) {
  const paths = jobStatePaths(stateDir, jobName);
  let journal;
  try {
    journal = await readJournal(paths.checkpoint);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new CliError(`job "${jobName}" has no checkpoint in ${paths.dir}: run \`outreach run\` first (or pass the --state-dir it ran with)`);
    }
    throw err;
  }
  return replay(journal.events);
}
