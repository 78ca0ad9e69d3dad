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

/** How often a progress line is logged by default when no bar is drawn (`--progress-every`). */
export const PROGRESS_EVERY_MS = 30_000;

/**
 * On a terminal: a bar (done/total, rate, ETA, sent/failed), unless `enabled` is false
 * (`--no-progress`). Without a bar (cron, CI, pipes, or no bar asked): a progress line every
 * `everyMs` (job, host, sent/total, the rate now and asked, ETA), logged and told to `print` (stderr,
 * for people), and one more logged at the end. Both read the same RunStats.
 */
export function createProgress(options: {
  total: number;
  tty: boolean;
  /** Whether the bar may be drawn (on a terminal). */
  enabled: boolean;
  logger: Logger;
  clock?: () => number;
  /** Where the bar is drawn (stderr by default). */
  stream?: NodeJS.WriteStream;
  /** How often a progress line is logged without a bar; 0: never (default PROGRESS_EVERY_MS). */
  everyMs?: number;
  /** The job and the machine the line names. */
  job?: string;
  host?: string;
  /** The rate asked, all the job's numbers together (requests per second, as rate.per_second counts them). */
  askedPerSecond?: number;
  /** Requests sent so far (first messages, retries, after-send steps): the rate now is of them when given, else of first messages. */
  requests?: () => number;
  /** Prints a line for people (stderr); absent: the line is only logged. */
  print?: (line: string) => void;
}): Progress {
  const clock = options.clock ?? Date.now;
  const started = clock();
  let latest: RunStats | undefined;
  const rate = (s: RunStats) => s.seen / Math.max(0.001, (clock() - started) / 1000);

  if (options.tty && options.enabled) {
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
  // The rate now is over the last interval: since the line before (or the start).
  const requests = options.requests;
  let before = { at: started, sent: 0, seen: 0, requests: requests?.() ?? 0 };
  const line = (): string | undefined => {
    if (!latest) return undefined;
    const now = clock();
    const seconds = Math.max(0.001, (now - before.at) / 1000);
    const total = Math.max(options.total, latest.seen);
    const sentPerSecond = (latest.sent - before.sent) / seconds;
    const requestsNow = requests?.();
    const requestsPerSecond = requestsNow !== undefined ? (requestsNow - before.requests) / seconds : undefined;
    const donePerSecond = (latest.seen - before.seen) / seconds;
    const eta = donePerSecond > 0 ? Math.round((total - latest.seen) / donePerSecond) : undefined;
    before = { at: now, sent: latest.sent, seen: latest.seen, requests: requestsNow ?? 0 };
    const fields = {
      done: latest.seen,
      total,
      sent: latest.sent,
      failed: latest.failed,
      in_doubt: latest.inDoubt,
      skipped: latest.skipped,
      sent_per_second: round1(sentPerSecond),
      average_sent_per_second: round1(latest.sent / Math.max(0.001, (now - started) / 1000)),
      ...(requestsPerSecond !== undefined && { requests_per_second: round1(requestsPerSecond) }),
      ...(options.askedPerSecond !== undefined && { asked_per_second: options.askedPerSecond }),
      ...(eta !== undefined && { eta_seconds: eta }),
    };
    const who = `${options.job ?? 'the run'}${options.host !== undefined ? ` on ${options.host}` : ''}`;
    const asked = options.askedPerSecond !== undefined ? ` (${round1(options.askedPerSecond)}/s asked)` : '';
    const now_ = requestsPerSecond !== undefined ? `${round1(requestsPerSecond)} requests/s now` : `${round1(sentPerSecond)} sent/s now`;
    const text = `progress of ${who}: ${latest.sent}/${total} sent, ${latest.seen} done, ${now_}${asked}, ETA ${eta !== undefined ? formatEta(eta) : 'unknown'}${bound ? `; ${bound}` : ''}`;
    options.logger.info({ event: 'progress', progress: fields, ...(bound && { concurrency_bound: bound }) }, text);
    return text;
  };
  const everyMs = options.everyMs ?? PROGRESS_EVERY_MS;
  const timer =
    everyMs > 0
      ? setInterval(() => {
          const text = line();
          if (text !== undefined) options.print?.(text);
        }, everyMs)
      : undefined;
  timer?.unref();
  return {
    update(stats, live) {
      latest = stats;
      bound = live?.concurrencyBound;
    },
    stop() {
      if (timer) clearInterval(timer);
      // The last line goes to the log only: the summary follows for people.
      if (everyMs > 0) line();
    },
  };
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** "45s", "3m 05s", "2h 07m". */
export function formatEta(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(seconds / 3600)}h ${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}
