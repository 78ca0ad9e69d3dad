import type { Command } from 'commander';
import { readStartAt, zoneOfJob, type Prepared } from '../../app/index.js';
import { dateOrder } from '../../locale/people.js';
import type { RetryMode } from '../../run/index.js';
import { CliError } from '../exit.js';
import { connectionFrom, platformOptions, prepareOnline } from '../api-command.js';
import { runSession } from '../run-session.js';
import { testSendSession } from '../test-send-session.js';
import { storeOptions, withJobStore } from '../store-root.js';
import { LOCALE_OPTION, readersOf, TZ_OPTION } from '../format/time.js';
import { METRICS_FILE_OPTION, metricsTargets, PUSHGATEWAY_OPTION, type MetricsFlags } from '../metrics-options.js';
import { LOG_FORMAT_OPTION } from '../logger.js';
import { numberFlag } from '../readback-session.js';

interface RunFlags extends MetricsFlags {
  baseUrl?: string;
  tokenFile?: string;
  stateDir?: string;
  store?: string;
  json?: boolean;
  progress?: boolean;
  forceChanged?: boolean;
  retryInDoubt?: boolean;
  wait?: boolean;
  tz?: string;
  locale?: string;
  progressEvery?: string;
  testTo?: string | true;
  at?: string;
}

function sendOptions(cmd: Command): Command {
  return storeOptions(platformOptions(cmd.argument('<job>', 'job file (JSON)')))
    .option('--json', 'print the summary as one JSON object')
    .option('--no-progress', 'no progress bar (the progress lines of a run without one are still logged)')
    .option('--progress-every <seconds>', 'without a bar, log a progress line this often (0: never)', '30')
    .option('--force-changed', 'send even though the message content changed since the checkpoint started')
    .option('--wait', 'stay, and send each deferred contact (quiet hours, messaging limit) when its time comes')
    .option(...TZ_OPTION)
    .option(...LOCALE_OPTION)
    .option(...METRICS_FILE_OPTION)
    .option(...PUSHGATEWAY_OPTION)
    .option(...LOG_FORMAT_OPTION);
}

export function registerRun(program: Command): void {
  sendOptions(program.command('run').description('Send the job: one first message per contact, rate-limited, checkpointed; continues an earlier run'))
    .option('--at <time>', "send nobody before this time (overrides the job's start_at): \"2026-11-28 09:00\" or \"28/11/2026 09:00\" (day first as --locale writes dates) in each contact's own zone, or with an offset one instant, e.g. 2026-11-28T09:00:00-03:00; until then every contact is deferred, or with --wait the run waits")
    .option('--test-to [phones]', "send only a test: the message, with the first rows' values, to these phones (comma-separated; none given: the job's test_to); the campaign is not sent")
    .action((jobPath: string, flags: RunFlags) => send(jobPath, flags, { retryFailed: false, retryInDoubt: false }, 'run'));
  sendOptions(program.command('resume').description('Continue an interrupted run and retry every retryable failure on its known conversation'))
    .option('--retry-in-doubt', 'also resend contacts in doubt (check them on the platform first)')
    .action((jobPath: string, flags: RunFlags) => send(jobPath, flags, { retryFailed: true, retryInDoubt: flags.retryInDoubt === true }, 'resume'));
}

/** The job with `--at` as its start_at, when given: read as the person writes dates (`locale`), a time without an offset in each contact's zone. */
function startingAt(prepared: Prepared, at: string | undefined, locale: string | undefined): Prepared {
  if (at === undefined) return prepared;
  const read = readStartAt(at, dateOrder(locale));
  if (!read.ok) throw new CliError(`--at: ${read.problem}${locale === undefined && /could be/.test(read.problem) ? ', or give --locale (pt-BR reads it day first)' : ''}`);
  const { job } = prepared;
  if (read.start.kind === 'local' && job.default_timezone === undefined && (job.send_window === undefined || job.send_window.timezone === 'recipient')) {
    throw new CliError(`--at: ${JSON.stringify(at)} names no offset, so it is each contact's own local time, and the job names no zone for the contacts whose number does not tell theirs; set "default_timezone" in the job, or give the time with an offset, e.g. ${read.start.text}-03:00`);
  }
  return { ...prepared, job: { ...job, start_at: read.start.text } };
}

async function send(jobPath: string, flags: RunFlags, mode: RetryMode, command: 'run' | 'resume'): Promise<void> {
  const people = readersOf(flags); // a wrong --tz or --locale is told before anything is read
  const startedAt = Date.now();
  const metrics = await metricsTargets(flags);
  const progressEveryMs = numberFlag('--progress-every', flags.progressEvery ?? '30', 0) * 1000;
  process.exitCode = await withJobStore(flags, jobPath, async (store) => {
    const connection = await connectionFrom(flags);
    const prepared = startingAt(await prepareOnline(jobPath, connection, store), flags.at, people.locale);
    const zone = readersOf(flags, zoneOfJob(prepared.job));
    if (flags.testTo !== undefined) return testSendSession(prepared, flags.testTo, { store, connection });
    return runSession(prepared, {
      store,
      connection,
      command,
      mode,
      ...(flags.json !== undefined && { json: flags.json }),
      ...(flags.progress !== undefined && { progress: flags.progress }),
      progressEveryMs,
      ...(flags.forceChanged !== undefined && { forceChanged: flags.forceChanged }),
      ...(flags.wait !== undefined && { wait: flags.wait }),
      ...(metrics && { metrics, startedAt }),
      zone,
    });
  });
}
