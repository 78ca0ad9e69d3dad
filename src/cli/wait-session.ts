import { runUntilDone, type Prepared, type RunJobOptions, type RunOutcome } from '../app/index.js';
import { formatDeferred } from './format/deferred.js';
import { waitDisplay } from './wait-display.js';
import type { Readers } from './format/time.js';

/**
 * `run --wait` at the command line: the runs of `runUntilDone`, a line after each but the last, and
 * what it waits for in between. `beforeWait` stops the progress display of the run that ended.
 */
export async function runWaiting(prepared: Prepared, options: RunJobOptions, beforeWait: () => void, zone: Readers): Promise<RunOutcome> {
  const display = waitDisplay(process.stderr, zone);
  try {
    const result = await runUntilDone(prepared, {
      ...options,
      onStart: (info) => {
        display.stop();
        options.onStart?.(info);
      },
      onRun: (outcome) => {
        beforeWait();
        process.stderr.write(`${new Date().toISOString()} ${outcome.command} of ${outcome.job}: ${outcome.thisRun.sent} sent this pass, ${outcome.summary.byStatus.sent} of ${outcome.summary.total} in all\n`);
      },
      onWait: (info) => display.start(info),
    });
    display.stop();
    if (result.waitAborted) {
      const left = formatDeferred(result.outcome.deferred, Date.now(), zone) ?? 'nothing deferred';
      process.stderr.write(`stopped waiting (nothing was in flight): ${left}; \`outreach run\` sends them later\n`);
    }
    return result.outcome;
  } finally {
    display.stop();
  }
}
