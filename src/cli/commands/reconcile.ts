import type { Command } from 'commander';
import { reconcileJob, SETTLE_MINUTES } from '../../app/index.js';
import { outcomeExitCode } from '../exit.js';
import { formatReconcile } from '../format/track.js';
import { localeOption } from '../format/time.js';
import { numberFlag, readbackOptions, readbackSession, type ReadbackFlags } from '../readback-session.js';

export function registerReconcile(program: Command): void {
  readbackOptions(
    program
      .command('reconcile')
      .description('Settle contacts in doubt by reading the platform back: found → sent with its ids; no message → pending (resume sends it)')
      .argument('<job>', 'job file (JSON)')
      .option('--settle-minutes <n>', 'a contact with no message on the platform becomes pending once its attempt is this old', String(SETTLE_MINUTES)),
  ).action(async (jobPath: string, flags: ReadbackFlags) => {
      const settleMinutes = numberFlag('--settle-minutes', flags.settleMinutes ?? String(SETTLE_MINUTES), 0);
      const outcome = await readbackSession(jobPath, flags, (options) => reconcileJob(jobPath, { ...options, settleMinutes }));
      if (flags.json) process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
      else {
        process.stdout.write(formatReconcile(outcome, { locale: localeOption(flags.locale) }));
        if (outcome.notDone === 0 && outcome.pending > 0) process.stdout.write('next: `outreach resume` sends the pending ones\n');
      }
      process.exitCode = outcomeExitCode(outcome);
    });
}
