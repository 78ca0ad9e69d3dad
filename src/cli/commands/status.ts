import type { Command } from 'commander';
// Its own modules, not app/index.js: a fresh status loads no more than it uses (no API client).
import { describePlace } from '../../app/load/content-guard.js';
import { jobStatus, type JobStatus } from '../../app/report/job-report.js';
import { jobZone } from '../../app/report/job-zone.js';
import { count, percent } from '../../locale/people.js';
import { formatSummary } from '../../report/index.js';
import { outcomeExitCode } from '../exit.js';
import { formatDeferred, formatRoom } from '../format/deferred.js';
import { formatFunnel } from '../format/funnel.js';
import { experimentJson, formatExperiment } from '../format/experiment.js';
import { followUpJson, formatFollowUp } from '../format/follow-up.js';
import { formatNumbers, numbersJson } from '../format/pool.js';
import { nextSteps } from '../format/next-steps.js';
import { formatTime, LOCALE_OPTION, readersOf, TZ_OPTION, type Readers } from '../format/time.js';
import { STATE_DIR_OPTION, STORE_OPTION, withJobStore, STORE_FILE_OPTION } from '../store-root.js';

interface StatusFlags {
  stateDir?: string;
  store?: string;
  json?: boolean;
  tz?: string;
  locale?: string;
}

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description("Counts by status from the job's checkpoint, with the funnel sent → delivered → read → replied (does not contact the platform)")
    .argument('<job>', 'job file (JSON)')
    .option(...STATE_DIR_OPTION)
    .option(...STORE_OPTION)
    .option(...STORE_FILE_OPTION)
    .option('--json', 'print the counts as one JSON object')
    .option(...TZ_OPTION)
    .option(...LOCALE_OPTION)
    .action(async (jobPath: string, flags: StatusFlags) => {
      // JSON has no times for people: the job's zone is not read for it (a --tz or --locale given is still checked).
      const zone = flags.json && flags.tz === undefined && flags.locale === undefined ? undefined : readersOf(flags, flags.json ? undefined : await jobZone(jobPath));
      const status = await withJobStore(flags, jobPath, (store) => jobStatus(jobPath, { store }));
      if (status.listProblem) process.stderr.write(`outreach: contacts not counted as pending: ${status.listProblem}\n`);
      const { summary, replies, deferred, messaging, funnel, running, experiment, followUp, numbers } = status;
      if (flags.json) {
        const extra = { ...(experiment && { experiment: experimentJson(experiment) }), ...(followUp && { follow_up: followUpJson(followUp) }), ...(numbers && { numbers: numbersJson(numbers) }) };
        process.stdout.write(`${JSON.stringify({ job: status.job, ...(status.startedFrom && { started_from: status.startedFrom }), running: running ?? null, ...summary, replies, deferred, messaging, funnel, ...extra }, null, 2)}\n`);
      } else if (zone) {
        const now = Date.now();
        const waiting = formatDeferred(deferred, now, zone);
        process.stdout.write(
          `status of ${status.job}\n` +
            (status.startedFrom ? `  started from ${describePlace(status.startedFrom)}\n` : '') +
            (running ? `  ${formatRunning(running, zone, now)}\n` : '') +
            `${formatSummary(summary, zone.locale).trimEnd()}\n  replies ${count(zone, replies.count)} of ${count(zone, summary.byStatus.sent)} sent (${percent(zone, replies.rate)})\n` +
            nextSteps(summary.byStatus, summary.byStatus.pending, zone).map((line) => `  ${line}\n`).join('') +
            (waiting ? `  ${waiting}\n` : '') +
            (numbers ? formatNumbers(numbers, zone) : '') +
            `  ${formatRoom(messaging, now, zone)}\n` +
            (followUp ? `${formatFollowUp(followUp, now, zone).join('\n')}\n` : '') +
            formatFunnel(funnel, zone) +
            (experiment ? formatExperiment(experiment, now, zone) : ''),
        );
      }
      process.exitCode = outcomeExitCode(status);
    });
}

/** "running now: `outreach run` by pid 4242 on host box-1, since 14:20 Europe/Lisbon; these counts move while it runs". */
function formatRunning(running: NonNullable<JobStatus['running']>, zone: Readers, now: number): string {
  const by = `${running.command ? `\`outreach ${running.command}\` ` : ''}by pid ${running.pid} on host ${running.host}${running.jobFile ? ` from ${running.jobFile}` : ''}`;
  const since = Date.parse(running.since);
  const when = Number.isNaN(since) ? 'since a time its lock does not record' : `since ${formatTime(since, zone, now)}`;
  if (running.gone) {
    return `not running: the run ${by} ${when} is gone (its process ended without letting the job go); a run on this host takes the job over at once, one elsewhere after ${formatTime(Date.parse(running.gone.until), zone, now)}`;
  }
  return `running now: ${by}, ${when}; these counts move while it runs`;
}
