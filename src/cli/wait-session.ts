import { runUntilDone, type Prepared, type RunJobOptions, type RunOutcome } from '../app/index.js';
import { formatDeferred } from './format/deferred.js';
import { waitDisplay, type WaitDisplay } from './wait-display.js';
import { formatTime, type Readers } from './format/time.js';
import { logFormat, stderrLine } from './logger.js';

/**
 * `run --wait` at the command line: the runs of `runUntilDone`, a line after each but the last, and
 * what it waits for in between. `beforeWait` stops the progress display of the run that ended.
 */
export async function runWaiting(prepared: Prepared, options: RunJobOptions, beforeWait: () => void, zone: Readers): Promise<RunOutcome> {
  const json = logFormat() === 'json';
  const display = json ? jsonWaitDisplay(zone) : waitDisplay(process.stderr, zone);
  const say = (event: string, text: string) => (json ? stderrLine('info', event, text) : process.stderr.write(`${text}\n`));
  try {
    const result = await runUntilDone(prepared, {
      ...options,
      onStart: (info) => {
        display.stop();
        options.onStart?.(info);
      },
      onRun: (outcome) => {
        beforeWait();
        say('pass_done', `${json ? '' : `${new Date().toISOString()} `}${outcome.command} of ${outcome.job}: ${outcome.thisRun.sent} sent this pass, ${outcome.summary.byStatus.sent} of ${outcome.summary.total} in all`);
      },
      onWait: (info) => display.start(info),
    });
    display.stop();
    if (result.waitAborted) {
      const left = formatDeferred(result.outcome.deferred, Date.now(), zone) ?? 'nothing deferred';
      say('wait_stopped', `stopped waiting (nothing was in flight): ${left}; \`outreach run\` sends them later`);
    }
    return result.outcome;
  } finally {
    display.stop();
  }
}

/** In the JSON format: one object when a wait begins, no countdown. */
function jsonWaitDisplay(zone: Readers): WaitDisplay {
  return {
    start(info) {
      const what = formatDeferred(info.deferred, Date.now(), zone) ?? 'deferred contacts';
      stderrLine('info', 'waiting', `waiting: ${what}; next run at ${formatTime(info.until, zone, Date.now())}`);
    },
    stop: () => undefined,
  };
}
