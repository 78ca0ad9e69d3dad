import cliProgress from 'cli-progress';
import type { Logger } from 'pino';
import type { RunStats } from '../run/index.js';

export interface Progress {
  /** `concurrencyBound`: the sentence saying the requests in flight keep the run below the asked rate, when they do. */
  update(stats: RunStats, live?: { concurrencyBound?: string }): void;
  stop(): void;
}

/** The bar's line: fits 80 columns even at a million contacts (the bar is cleared before the summary prints). */
export const BAR_FORMAT = '{bar} {value}/{total} {speed}/s ETA {eta_formatted} | ok {sent} fail {failed} doubt {doubt}';

/** How often a line is logged when there is no terminal to draw a bar on. */
const LOG_EVERY_MS = 5_000;

/**
 * On a terminal: a bar (done/total, rate, ETA, sent/failed). Elsewhere (cron, CI, pipes): a pino
 * line every few seconds. Both read the same RunStats.
 */
export function createProgress(options: {
  total: number;
  tty: boolean;
  enabled: boolean;
  logger: Logger;
  clock?: () => number;
  /** Where the bar is drawn (stderr by default). */
  stream?: NodeJS.WriteStream;
}): Progress {
  const clock = options.clock ?? Date.now;
  const started = clock();
  let latest: RunStats | undefined;
  const rate = (s: RunStats) => s.seen / Math.max(0.001, (clock() - started) / 1000);

  if (!options.enabled) return { update: () => undefined, stop: () => undefined };

  if (options.tty) {
    const bar = new cliProgress.SingleBar(
      {
        format: BAR_FORMAT,
        barsize: 10,
        hideCursor: true,
        clearOnComplete: true,
        linewrap: false,
        etaBuffer: 50,
        fps: 5,
        stream: options.stream ?? process.stderr,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(options.total, 0, { speed: '0.0', sent: 0, failed: 0, doubt: 0, bound: '' });
    // A first run's total is estimated from the files' sizes: a list longer than that raises it.
    let total = options.total;
    return {
      update(stats, live) {
        if (stats.seen > total) bar.setTotal((total = stats.seen));
        const bound = live?.concurrencyBound ? ` | ${live.concurrencyBound}` : '';
        bar.update(stats.seen, { speed: rate(stats).toFixed(1), sent: stats.sent, failed: stats.failed, doubt: stats.inDoubt, bound });
      },
      stop() {
        bar.stop();
      },
    };
  }

  let bound: string | undefined;
  const log = () => {
    if (!latest) return;
    options.logger.info(
      {
        progress: { done: latest.seen, total: options.total, sent: latest.sent, failed: latest.failed, in_doubt: latest.inDoubt, skipped: latest.skipped, per_second: Number(rate(latest).toFixed(1)) },
        ...(bound && { concurrency_bound: bound }),
      },
      bound ? `progress; ${bound}` : 'progress',
    );
  };
  const timer = setInterval(log, LOG_EVERY_MS);
  timer.unref();
  return {
    update(stats, live) {
      latest = stats;
      bound = live?.concurrencyBound;
    },
    stop() {
      clearInterval(timer);
      log();
    },
  };
}
