import { reconcileInDoubt, SETTLE_MINUTES, type ReconcileOutcome } from './reconcile-in-doubt.js';
import { withReadback, type ReadbackOptions } from './readback.js';

export interface ReconcileJobOptions extends ReadbackOptions {
  /** An attempt younger than this with no message found stays in doubt (default 5). */
  settleMinutes?: number;
}

export interface ReconcileJobOutcome extends ReconcileOutcome {
  job: string;
  /** Contacts still in doubt: zero means `resume` can go on safely. */
  notDone: number;
}

/**
 * `outreach reconcile`: reads the platform back for every contact of the job in doubt and records
 * what it did (sent with its ids, pending, or still in doubt with why).
 */
export async function reconcileJob(jobPath: string, options: ReconcileJobOptions): Promise<ReconcileJobOutcome> {
  return withReadback(jobPath, 'reconcile', options, async ({ loaded, list, state, reads, clock, logger }) => {
    const outcome = await reconcileInDoubt({ list, state, reads, now: clock(), settleMs: (options.settleMinutes ?? SETTLE_MINUTES) * 60_000 });
    logger.info({ job: loaded.job.name, reconcile: outcome }, 'reconciled');
    return { job: loaded.job.name, ...outcome, notDone: outcome.unresolved.length };
  });
}
