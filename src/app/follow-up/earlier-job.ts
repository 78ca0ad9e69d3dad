import type { StateStore } from '../../checkpoint/index.js';
import { JobError, loadJob, whoNeedsTracking, type FollowUpWho, type LoadedJob } from '../../job/index.js';
import { AppError } from '../errors.js';
import { selectFollowUp, type EarlierOutcome } from './earlier-outcome.js';
import { repliesOf, lastTracked } from '../delivery/index.js';

/** What a follow-up knows of its earlier job, for `plan` and `status`. */
export interface FollowUpView {
  /** The earlier job's name. */
  job: string;
  who: FollowUpWho[];
  afterHours: number;
  /** How many of the earlier job's contacts are in each outcome now. */
  byOutcome: Record<EarlierOutcome, number>;
  /** `not_delivered` told apart: delivery failed (the funnel's "not delivered"), or still only "sent". */
  notDelivered: { failed: number; stillSent: number };
  /** How many the follow-up takes (those it already handled included). */
  takes: number;
  /** Of the earlier job's contacts in one of `who`, how many are not old enough yet. */
  tooRecent: number;
  /** When `track` last read the earlier job (ISO); absent when never, or before the store kept it. */
  lastTrackedAt?: string;
  /** Whether `track` ever read it (a delivery is known, or the store says when). */
  tracked: boolean;
}

/** A loaded job with its audience: a follow-up's phones (only they are read from the earlier job's list). */
export type AudienceJob = LoadedJob & { only?: ReadonlySet<string>; followUp?: FollowUpView };

/**
 * A follow-up's job (`loaded` names a `follow_up`): it takes the earlier job's list, columns and
 * loader settings (the earlier job's file, as its state names it) and the phones it follows up, from
 * the store at `now`. An earlier job that is unknown, or never tracked while `who` needs it, is an AppError.
 */
export async function followUpJob(loaded: LoadedJob, jobPath: string, whole: StateStore | undefined, now: number): Promise<AudienceJob> {
  const followUp = loaded.job.follow_up;
  if (followUp === undefined) return loaded;
  const where = `${jobPath}: follow_up.job`;
  // The earlier job is the same company's.
  const store = whole?.account(loaded.job.company_id);
  if (store === undefined) throw new AppError(`${where}: a follow-up reads the earlier job "${followUp.job}" from the store; run it with the store (not --offline without --state-dir)`);
  const view = await store.readJob(followUp.job);
  if (view === undefined) {
    throw new AppError(`${where}: job "${followUp.job}" has no state in ${store.location}; name a job that ran there (or pass the --state-dir or --store it ran with)`);
  }
  const earlierFile = view.header?.job_file;
  if (earlierFile === undefined) throw new AppError(`${where}: the state of job "${followUp.job}" does not name its job file; run it once with this version of outreach`);
  const earlier = await loadJob(earlierFile).catch((err: unknown) => {
    const why = err instanceof JobError ? err.message : String(err);
    throw new AppError(`${where}: the file of job "${followUp.job}" (${earlierFile}) cannot be read, and its list is the follow-up's: ${why}`);
  });
  const tracked = await lastTracked(store, followUp.job, view.states.values());
  if (!tracked.ever && whoNeedsTracking(followUp.who)) {
    throw new AppError(
      `${jobPath}: follow_up.who (${followUp.who.join(', ')}) needs to know who got and read the message, and job "${followUp.job}" was never tracked; run \`outreach track ${earlierFile}\` first`,
    );
  }
  const job = { ...loaded.job, contacts: earlier.job.contacts, columns: earlier.job.columns, input: earlier.job.input };
  if (earlier.job.default_country !== undefined) job.default_country = earlier.job.default_country;
  else delete job.default_country;
  if (job.require_opt_in && job.columns.opt_in === undefined) {
    throw new AppError(`${jobPath}: require_opt_in needs the column holding each contact's consent, and job "${followUp.job}" names none; set columns.opt_in in ${earlierFile}`);
  }
  const own = await store.readJob(loaded.job.name);
  const selection = selectFollowUp(view.states.values(), await repliesOf(store, view.states), followUp, now, own ? own.states.keys() : []);
  return {
    ...loaded,
    job,
    baseDir: earlier.baseDir,
    namedColumns: earlier.namedColumns,
    only: selection.phones,
    followUp: {
      job: followUp.job,
      who: followUp.who,
      afterHours: followUp.after_hours,
      byOutcome: selection.byOutcome,
      notDelivered: selection.notDelivered,
      takes: selection.phones.size,
      tooRecent: selection.tooRecent,
      ...(tracked.at !== undefined && { lastTrackedAt: tracked.at }),
      tracked: tracked.ever,
    },
  };
}
