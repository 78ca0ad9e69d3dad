import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { stopJobFile, type StopOutcome } from '../../app/index.js';
import { ExitCode } from '../exit.js';
import { STATE_DIR_OPTION, STORE_OPTION, withJobStore, STORE_FILE_OPTION } from '../store-root.js';

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

/**
 * SIGTERM to `pid` when it is a live process of ours (node running outreach): a pid the store recorded
 * may since belong to another program, which is never signalled.
 */
function terminate(pid: number): boolean {
  if (!isOutreach(pid)) return false;
  try {
    process.kill(pid, 'SIGTERM');
    return true;
  } catch {
    return false;
  }
}

/** Whether `pid` runs node (or outreach), where /proc tells; true where it cannot be told. */
function isOutreach(pid: number): boolean {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch (err) {
    // No /proc (macOS): the store's liveness check is all there is. A pid gone: nothing to stop.
    return (err as NodeJS.ErrnoException).code !== 'ENOENT' || !readableProc();
  }
  return /node|outreach/.test(cmdline);
}

function readableProc(): boolean {
  try {
    readFileSync('/proc/self/cmdline');
    return true;
  } catch {
    return false;
  }
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
