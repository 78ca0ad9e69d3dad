import { hostname } from 'node:os';
import type { ReadbackOptions } from '../app/index.js';
import { loadJob } from '../job/index.js';
import { connectionFrom, platformOptions, untilStopped, withClient } from './api-command.js';
import { CliError } from './exit.js';
import { fileLogger, flushLogger } from './logger.js';
import { storeOptions, withJobStore } from './store-root.js';
import type { Command } from 'commander';
import { LOCALE_OPTION } from './format/time.js';
import type { MetricsTargets } from '../metrics/index.js';
import { withPassMetrics, type PassReading } from './pass-metrics.js';

/** The flags `track` and `reconcile` share. */
export interface ReadbackFlags {
  baseUrl?: string;
  tokenFile?: string;
  stateDir?: string;
  store?: string;
  json?: boolean;
  settleMinutes?: string;
  locale?: string;
}

/** Adds the options `track` and `reconcile` share after their own: `--json`, the platform's, the store's, `--locale`. */
export function readbackOptions(command: Command): Command {
  return storeOptions(platformOptions(command.option('--json', 'print the outcome as one JSON object'))).option(...LOCALE_OPTION);
}

/**
 * One `track` or `reconcile` at the command line: the platform client (failures as one sentence),
 * the job's log file, and SIGINT/SIGTERM as the abort signal. `run` gets the use-case's options.
 */
export async function readbackSession<T>(
  jobPath: string,
  flags: ReadbackFlags,
  run: (options: ReadbackOptions) => Promise<T>,
  metrics?: { command: 'track'; targets: MetricsTargets | undefined; reading: PassReading<T> },
): Promise<T> {
  return withJobStore(flags, jobPath, async (store) => {
    const connection = await connectionFrom(flags);
    const { job } = await loadJob(jobPath);
    const logger = fileLogger(store.account(job.company_id).jobFiles(job.name).log, { job: job.name });
    const work = () => untilStopped((signal) => withClient(connection, (api) => run({ store, api, owner: { pid: process.pid, host: hostname() }, logger, signal }), job));
    try {
      return await (metrics ? withPassMetrics(metrics.command, metrics.targets, { campaign: job.name, logger }, work, metrics.reading) : work());
    } finally {
      await flushLogger(logger);
    }
  });
}

/** A number flag at least `min`, or a one-sentence error naming it. */
export function numberFlag(name: string, value: string, min: number): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min) throw new CliError(`${name}: "${value}" is not a number of ${min} or more`);
  return n;
}
