/**
 * A run stopped by its store: a write it could not make, or a store it could not reach for longer
 * than the store waits (a database's patience). Nothing more was sent. The sentence says why and
 * what to do, each step once and in order (reconcile the contacts in flight, then resume), and the
 * run leaves its record before the process ends: summary.json, and run.log's last line.
 */
import type { Logger } from 'pino';
import { StoreUnavailableError, StoreWriteError, thenStep, type JobStore } from '../../checkpoint/index.js';
import { AppError } from '../errors.js';
import type { RunSoFar } from './so-far.js';
import { digestStates } from '../report/index.js';
import { writeStoppedSummary } from './summary-file.js';

/** The store's own error behind `err`, when it is one that stops a run. */
export function storeFault(err: unknown): StoreWriteError | StoreUnavailableError | undefined {
  return err instanceof StoreWriteError || err instanceof StoreUnavailableError ? err : undefined;
}

/** The stop as one sentence (exit 3): why, that nothing more was sent, and the steps after it in order. */
export function storeStopped(err: StoreWriteError | StoreUnavailableError, inFlight = 0): AppError {
  const steps =
    inFlight > 0
      ? `run \`outreach reconcile\` (it settles the ${inFlight === 1 ? 'contact whose request was' : `${inFlight} contacts whose requests were`} in flight), then \`outreach resume\``
      : 'run `outreach resume`';
  return new AppError(`${err.problem}; nothing more was sent: ${thenStep(err.fix, steps)}`, 'aborted');
}

/**
 * Writes the stopped run's summary.json (the job's states as this process holds them: nothing is read
 * from the store that stopped it) and run.log's last line (why, and the phones in flight); a summary
 * that cannot be written is told in the log before it.
 */
export async function recordStoreStop(state: Pick<JobStore, 'files' | 'states'>, logger: Logger, stop: { job: string; command: 'run' | 'resume'; message: string; soFar: RunSoFar; finishedAt: number }): Promise<void> {
  const { files } = state;
  const inFlight = stop.soFar.inFlight();
  const stats = stop.soFar.stats;
  const { startedAt } = stop.soFar;
  const { summary } = digestStates(state.states, {
    ...(startedAt !== undefined && { startedAt: new Date(startedAt) }),
    finishedAt: new Date(stop.finishedAt),
    sentThisRun: stats?.sent ?? 0,
    pending: 0,
    replies: new Map(),
  });
  const thisRun = {
    sent: stats?.sent ?? 0,
    failed: stats?.failed ?? 0,
    in_doubt: stats?.inDoubt ?? 0,
    skipped: stats?.skipped ?? 0,
    deferred: stats?.deferred ?? 0,
    already_done: (stats?.untouched ?? 0) + stop.soFar.alreadyDone(),
    warnings: stats?.warnings ?? 0,
    duration_ms: startedAt === undefined ? 0 : stop.finishedAt - startedAt,
  };
  await writeStoppedSummary(files.summary, { job: stop.job, command: stop.command, message: stop.message, inFlight, thisRun, summary }).catch((err: unknown) =>
    logger.warn({ err }, `could not write ${files.summary}`),
  );
  logger.error({ stopped: 'store', in_flight: inFlight, this_run: thisRun }, `stopped: ${stop.message}`);
}
