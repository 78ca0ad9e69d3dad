import type { Command } from 'commander';
import { SETTLE_MINUTES, trackJob, TRACK_INTERVAL_MS, type TrackOutcome } from '../../app/index.js';
import { outcomeExitCode } from '../exit.js';
import { formatPass, formatPassStart, formatTrack } from '../format/track.js';
import { localeOption } from '../format/time.js';
import { numberFlag, readbackOptions, readbackSession, type ReadbackFlags } from '../readback-session.js';
import { LOG_FORMAT_OPTION } from '../logger.js';
import { METRICS_FILE_OPTION, metricsTargets, PUSHGATEWAY_OPTION, type MetricsFlags } from '../metrics-options.js';

interface TrackFlags extends ReadbackFlags, MetricsFlags {
  untilSettled?: boolean;
  interval?: string;
}

export function registerTrack(program: Command): void {
  readbackOptions(
    program
      .command('track')
      .description("Read back each sent message's delivery, read and failure (reconciling contacts in doubt first); incremental, for cron")
      .argument('<job>', 'job file (JSON)')
      .option('--until-settled', 'repeat until every sent message is read, failed, or older than track.max_age_hours')
      .option('--interval <seconds>', 'seconds between passes with --until-settled', String(TRACK_INTERVAL_MS / 1000))
      .option('--settle-minutes <n>', 'a contact in doubt with no message on the platform becomes pending once its attempt is this old', String(SETTLE_MINUTES)),
  )
    .option(...METRICS_FILE_OPTION)
    .option(...PUSHGATEWAY_OPTION)
    .option(...LOG_FORMAT_OPTION)
    .action(async (jobPath: string, flags: TrackFlags) => {
      const intervalMs = numberFlag('--interval', flags.interval ?? '60', 1) * 1000;
      const settleMinutes = numberFlag('--settle-minutes', flags.settleMinutes ?? String(SETTLE_MINUTES), 0);
      const targets = await metricsTargets(flags);
      const reading = { succeeded: (o: TrackOutcome) => o.stopped === undefined, optOuts: (o: TrackOutcome) => ({ source: 'provider' as const, count: o.optedOut.length }) };
      const outcome = await readbackSession(jobPath, flags, (options) =>
        trackJob(jobPath, {
          ...options,
          untilSettled: flags.untilSettled === true,
          intervalMs,
          settleMinutes,
          onPassStart: (info) => {
            if (!flags.json) process.stderr.write(formatPassStart(info));
          },
          onPass: (pass, n) => {
            if (flags.untilSettled && !flags.json) process.stderr.write(formatPass(pass, n));
          },
        }),
        { command: 'track', targets, reading },
      );
      process.stdout.write(flags.json ? `${JSON.stringify(outcome, null, 2)}\n` : formatTrack(outcome, { locale: localeOption(flags.locale) }));
      process.exitCode = outcomeExitCode(outcome);
    });
}
