import { hostname } from 'node:os';
import type { Command } from 'commander';
import { stopJobFile, type StopOutcome } from '../../app/index.js';
import { ExitCode } from '../exit.js';
import { STATE_DIR_OPTION, STORE_OPTION, withJobStore, STORE_FILE_OPTION } from '../store-root.js';
import { terminate } from '../stop-signal.js';

interface StopFlags {
  stateDir?: string;
  store?: string;
}

export function registerStop(program: Command): void {
  program
    .command('stop')
    .description('Ask the process running the job (run, resume, track) to stop as one SIGTERM does, from any terminal of its host')
    .argument('<job>', 'job file (JSON)')
    .option(...STATE_DIR_OPTION)
    .option(...STORE_OPTION)
    .option(...STORE_FILE_OPTION)
    .action(async (jobPath: string, flags: StopFlags) => {
      const { job, outcome } = await withJobStore(flags, jobPath, (store) => stopJobFile(jobPath, { store, host: hostname(), signal: terminate }));
      process.stdout.write(`${stopText(job, outcome)}\n`);
      process.exitCode = outcome.kind === 'other_host' ? ExitCode.failed : ExitCode.ok;
    });
}

function stopText(job: string, outcome: StopOutcome): string {
  switch (outcome.kind) {
    case 'signalled':
      return `asked pid ${outcome.runner.pid} on this host to stop job ${job} (as one SIGTERM does): it finishes the requests in flight, then exits; \`outreach resume\` goes on later`;
    case 'other_host':
      return `job ${job} runs on host ${outcome.runner.host} (pid ${outcome.runner.pid}), not this one (${hostname()}): run \`outreach stop\` there, or \`kill -TERM ${outcome.runner.pid}\` on ${outcome.runner.host}`;
    case 'gone':
      return `nothing holds job ${job}: its owner, pid ${outcome.runner.pid} on this host, is gone; the next run takes the job over`;
    case 'not_running':
      return `nothing holds job ${job}: no run, resume or track of it is going on`;
    default: {
      const never: never = outcome;
      return never;
    }
  }
}
