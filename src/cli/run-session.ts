import { hostname } from 'node:os';
import { outcomeJson, runJob, type Prepared } from '../app/index.js';
import type { StateStore } from '../checkpoint/index.js';
import type { RetryMode } from '../run/index.js';
import type { Connection } from './api-command.js';
import { ExitCode, outcomeExitCode } from './exit.js';
import { formatRunEnd } from './format/run.js';
import { readersOf } from './format/time.js';
import type { ForPeople } from '../locale/people.js';
import { fileLogger, flushLogger, logFormat } from './logger.js';
import { createProgress, type Progress } from './progress.js';
import { stamped } from './stamp.js';
import { runWaiting } from './wait-session.js';
import type { MetricsTargets } from '../metrics/index.js';
import { askedPerSecond, runMetricsSession } from './run-metrics.js';
import { requestMeter } from './request-meter.js';
import { openApi } from './api-root.js';

/** How long in-flight requests may take to finish after SIGINT/SIGTERM before they are cut. */
const SHUTDOWN_GRACE_MS = 20_000;

export interface SessionOptions {
  store: StateStore;
  connection: Connection;
  command: 'run' | 'resume';
  mode: RetryMode;
  json?: boolean;
  /** Whether the bar may be drawn (`--no-progress`: not); progress lines are logged without one. */
  progress?: boolean;
  /** How often a progress line is logged without a bar (`--progress-every`); 0: never. */
  progressEveryMs?: number;
  forceChanged?: boolean;
  /** Stay and send each deferred contact when its time comes (`run --wait`). */
  wait?: boolean;
  /** How figures and times are printed (`--tz`, `--locale`); the environment's when not given. */
  zone?: ForPeople;
  /** Where the run's metrics go (`--metrics-file`, `--pushgateway`); none when absent. */
  metrics?: MetricsTargets;
  /** When the command started (epoch ms): the run's duration counts from it. */
  startedAt?: number;
}

/**
 * One run or resume at the command line: the job's log file, SIGINT/SIGTERM as abort signals (a
 * second one cuts the requests in flight), the progress bar or lines, the outcome printed, and
 * the exit code. Shared by `run`, `resume` and the demo.
 */
export async function runSession(prepared: Prepared, options: SessionOptions): Promise<ExitCode> {
  const { store, connection } = options;
  const zone = options.zone ?? readersOf({});
  const logger = fileLogger(store.account(prepared.job.company_id).jobFiles(prepared.job.name).log, { job: prepared.job.name });
  const sentences = logFormat() === 'sentences';
  const api = openApi(connection, prepared.job);
  const stop = new AbortController();
  const cut = new AbortController();
  let grace: NodeJS.Timeout | undefined;
  let progress: Progress | undefined;
  // The bar goes before anything else is written: it redraws over the line it started on, and a line written under it would be overwritten.
  const clearBar = () => {
    progress?.stop();
    progress = undefined;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stop.signal.aborted) return cut.abort(new Error(`${signal} again`));
    clearBar();
    logger.warn({ event: 'stopping', signal }, `${signal}: stopping after the requests in flight (${signal} again to cut them)`);
    if (sentences) process.stderr.write(`\n${stamped(`${signal}: stopping after the requests in flight (${signal} again to cut them)`, process.stderr.isTTY)}\n`);
    stop.abort(new Error(signal));
    grace = setTimeout(() => cut.abort(new Error('shutdown grace period over')), SHUTDOWN_GRACE_MS);
    grace.unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const meter = requestMeter(String(prepared.channel.id));
  const metrics = options.metrics ? runMetricsSession(options.metrics, { prepared, store, logger, meter, startedAt: options.startedAt ?? Date.now() }) : undefined;
  try {
    const jobOptions: Parameters<typeof runJob>[1] = {
      store,
      api,
      command: options.command,
      mode: options.mode,
      owner: { pid: process.pid, host: hostname() },
      forceChanged: options.forceChanged === true,
      signal: stop.signal,
      cutSignal: cut.signal,
      logger,
      onStart: ({ contacts, firstRun }) => {
        metrics?.sending(true);
        clearBar();
        if (firstRun && options.command === 'resume' && options.json !== true) {
          process.stderr.write(`${stamped(`resume of ${prepared.job.name}: the job has never run, so there is nothing to resume; this is its first run, sending the list (about ${contacts} contacts)`, process.stderr.isTTY)}\n`);
        }
        // Once stopping, no bar comes back: the lines said since stay as they are.
        if (stop.signal.aborted) return;
        progress = createProgress({
          total: contacts,
          tty: process.stderr.isTTY === true,
          enabled: options.progress !== false && options.json !== true,
          logger,
          ...(options.progressEveryMs !== undefined && { everyMs: options.progressEveryMs }),
          job: prepared.job.name,
          host: hostname(),
          askedPerSecond: askedPerSecond(prepared.job) * prepared.pool.length,
          requests: () => meter.total(),
          // In the JSON format the logger itself writes the line on stderr.
          ...(sentences && { print: (line: string) => void process.stderr.write(`${stamped(line, process.stderr.isTTY)}\n`) }),
        });
      },
      onProgress: (stats, live) => progress?.update(stats, live),
      onSendsOver: clearBar,
      onRecorded: (event) => {
        meter.note(event);
        metrics?.onRecorded(event);
      },
      ...(metrics && { onOptedOut: async () => metrics.onOptedOut() }),
    };
    const beforeWait = () => {
      clearBar();
      metrics?.sending(false);
    };
    const outcome = await (options.wait ? runWaiting(prepared, jobOptions, beforeWait, zone) : runJob(prepared, jobOptions)).catch(async (err: unknown) => {
      await metrics?.end(false);
      throw err;
    });
    clearBar();
    if (options.json) process.stdout.write(`${JSON.stringify(outcomeJson(outcome), null, 2)}\n`);
    else process.stdout.write(stamped(formatRunEnd(outcome, zone), process.stdout.isTTY));
    if (outcome.stopped) logger.error({ event: 'stopped', reason: outcome.stopped.reason }, outcome.stopped.message);
    if (outcome.stopped && !options.json && sentences) process.stderr.write(`${stamped(`outreach: ${outcome.stopped.message}`, process.stderr.isTTY)}\n`);
    await metrics?.end(outcome.stopped === undefined);
    return outcomeExitCode(outcome);
  } finally {
    clearBar();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (grace) clearTimeout(grace);
    await api.close().catch(() => undefined);
    await flushLogger(logger);
  }
}
