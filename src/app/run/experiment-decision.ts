import type { Logger } from 'pino';
import type { ApiClient } from '../../api/index.js';
import type { JobOwner, StateStore } from '../../checkpoint/index.js';
import type { RateLimiter } from '../../run/index.js';
import { armTallies, decideExperiment, decisionTime, experimentDecision, type ExperimentDecision } from '../experiment/index.js';
import type { Prepared } from '../prepare/index.js';
import { repliesOf, lastTracked } from '../delivery/index.js';
import { trackJob } from '../track/index.js';

export interface DecideOptions {
  store: StateStore;
  api: ApiClient;
  owner: Omit<JobOwner, 'startedAt' | 'command'>;
  clock: () => number;
  logger: Logger;
  limiter?: RateLimiter;
  signal?: AbortSignal;
}

/**
 * Before a run of an experiment: once the decision is due (the test's first send plus
 * decide_after_hours) and not made, reads the test's deliveries back first when the last `track`
 * is older than the decision time (a `replied` metric needs none), then decides and records the
 * decision in the store. Returns the decision made now, if one was.
 */
export async function decideIfDue(prepared: Prepared, options: DecideOptions): Promise<ExperimentDecision | undefined> {
  const { job } = prepared;
  const { store, clock, logger } = options;
  const experiment = job.experiment;
  if (experiment === undefined || (await experimentDecision(store, job.name)) !== undefined) return undefined;
  const ej = { name: job.name, experiment };
  const before = await store.readJob(job.name);
  const due = before && decisionTime(ej, before.states.values());
  if (before === undefined || due === undefined || clock() < due) return undefined;
  if (experiment.metric !== 'replied') {
    const tracked = await lastTracked(store, job.name, []);
    if (tracked.at === undefined || Date.parse(tracked.at) < due) {
      logger.info({ job: job.name }, 'experiment: tracking the test before deciding');
      await trackJob(prepared.jobFile, {
        store,
        api: options.api,
        owner: options.owner,
        clock,
        logger,
        ...(options.limiter && { limiter: options.limiter }),
        ...(options.signal && { signal: options.signal }),
      });
    }
  }
  const view = (await store.readJob(job.name)) ?? before;
  const { arms } = armTallies(ej, view.states.values(), await repliesOf(store, view.states));
  const decision = decideExperiment(ej, arms, clock());
  await store.saveJobNote(job.name, 'experiment', decision);
  logger.info({ job: job.name, decision }, `experiment decided: arm ${decision.winner} (${decision.by})`);
  return decision;
}
