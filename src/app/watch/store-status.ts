import { statesOf, type JobRunner, type StateStore, type StoredJob } from '../../checkpoint/index.js';
import { startedFrom } from '../load/index.js';
import { contactsNotDone, type JobStatus, digestStates } from '../report/index.js';
import { messagingRoom } from '../account/index.js';
import { repliesOf } from '../delivery/index.js';

/**
 * `status`'s figures of a job whose job file cannot be read here, from the store alone: its contacts by
 * status, the funnel, the deferred, who runs it, the messaging limit used. What only the job file tells
 * is left out and said in `listProblem`: the list's contacts never reached (not counted as pending), the
 * limit the job sets (only the recipients used), an experiment's arms, a pool's numbers.
 */
export async function storeStatus(whole: StateStore, stored: StoredJob, runner: JobRunner | undefined, why: string, now: number): Promise<JobStatus> {
  const view = await whole.readJob(stored.key);
  const states = view?.states ?? statesOf(new Map());
  const repliedAt = view ? await repliesOf(whole, view.states) : new Map<string, string>();
  const live = runner !== undefined && runner.gone === undefined ? runner : undefined;
  const { summary, funnel, deferred } = digestStates(states, { replies: repliedAt, ...(live && { runSince: live.since }) });
  const sent = summary.byStatus.sent;
  const account = stored.company !== undefined ? whole.account(stored.company) : whole;
  const place = startedFrom(view?.header);
  return {
    job: stored.name,
    summary,
    replies: { count: repliedAt.size, rate: sent > 0 ? repliedAt.size / sent : 0 },
    funnel,
    notDone: contactsNotDone(summary),
    listProblem: `${why}: the store's figures alone (the list's contacts never reached are not counted, nor the job's messaging limit)`,
    deferred,
    messaging: await messagingRoom(account, undefined, now),
    ...(place && { startedFrom: place }),
    ...(runner && { running: runner }),
  };
}
