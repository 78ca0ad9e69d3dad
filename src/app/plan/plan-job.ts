import type { ContactStatus, StateStore } from '../../checkpoint/index.js';
import type { ChannelInfo } from '../../plan/index.js';
import { summarise, writeRejects } from '../../report/index.js';
import { checkContent, type JobPlace } from '../load/index.js';
import { planPass, plannerFor, rejectRatioProblem, type PlanPass } from './pass.js';
import { planLookups, rememberedNumber } from './lookups.js';
import { ownState, OtherJobsTally, protectionOffWarning, repeatMessageWarning, type MessagedByOtherJobs, messagingRoom } from '../account/index.js';
import type { Prepared } from '../prepare/index.js';
import { estimateSend, type SendEstimate } from './estimate.js';
import type { FollowUpView } from '../follow-up/index.js';
import { experimentLookup } from '../experiment/index.js';

/** The dry run's answer: what would be sent to whom, and where the rejects went. */
export interface PlanResult extends PlanPass {
  job: string;
  channel: ChannelInfo;
  /** A pool's numbers (`channel_id` a list of several), in the job's order. */
  pool?: ChannelInfo[];
  /** The contact files read. */
  files: string[];
  /** The preflight's warnings (the loader's are in `warnings`), and the one of a job whose frequency cap is off. */
  preflightWarnings: string[];
  /** Contacts of the list that other jobs of the state folder messaged lately, which jobs, and when. */
  messagedByOtherJobs: MessagedByOtherJobs;
  rejectsFile: string;
  /** Set when more rows were rejected than the job allows: the run would refuse to start. */
  tooManyRejects?: string;
  /** The job's state from earlier runs, by status, when it has one: a dry run of a finished job does not look like a fresh one. */
  already?: Record<ContactStatus, number>;
  /** What changed since the job's state started, when something did and `forceChanged` allowed the preview. */
  contentChanges?: string;
  /** The job was started from another place (path or host) than this job file: this file continues it (the same name and message). */
  continuedFrom?: JobPlace;
  /** When the plan was made (epoch ms): deferrals are told against it. */
  now: number;
  /** With a pool of numbers: the seconds the sends take at the pool's rates (the busiest number's contacts over rate.per_second). */
  poolSeconds?: number;
  /** How long sending the contacts of `wouldSendNow` takes at the job's rate, when it ends, and what it would cross. */
  estimate: SendEstimate;
  /** A follow-up: its earlier job's contacts by outcome, how many it takes, when the earlier job was last tracked. */
  followUp?: FollowUpView;
}

/**
 * The dry run: one pass over the list at `clock()`, with the windows the store knows. Writes
 * rejects.csv and remembers the rejected rows; sends nothing. A job whose content changed since its
 * state started is refused as `run` refuses it (AppError `invalid`), unless `forceChanged` asks for
 * a preview of the new content.
 */
export async function planJob(prepared: Prepared, options: { store: StateStore; clock?: () => number; forceChanged?: boolean; /** This machine's name, for the job's place. */ host?: string }): Promise<PlanResult> {
  const { job } = prepared;
  // The job's company's part of the store: its jobs, its suppression list, its ledger and its windows.
  const store = options.store.account(job.company_id);
  const view = await store.readJob(job.name);
  const pinned = checkContent(job, { file: prepared.jobFile, ...(options.host !== undefined && { host: options.host }) }, view?.header, options.forceChanged === true);
  const prior = (phone: string) => view?.states.get(phone);
  const now = (options.clock ?? Date.now)();
  const lookups = await planLookups(store, job, undefined, ownState(view?.header));
  const experiment = await experimentLookup(store, job, view?.states);
  if (experiment) lookups.experiment = experiment;
  const ledger = lookups.compliance?.ledger;
  const tally = new OtherJobsTally(job, ledger);
  // A pool's contact goes from its own number (the ledger's, else the one its open window is on, else the stable choice), and is planned on it.
  const remembered = rememberedNumber(lookups, ledger && ((phone: string) => ledger.lastChannelOf(phone)));
  const { messagedByOtherJobs = tally.result(), ...pass } = await planPass(prepared, plannerFor(prepared, lookups, now, remembered), prior, { tally, now, remembered });
  const off = [protectionOffWarning(job), repeatMessageWarning(job)].filter((w): w is string => w !== undefined);
  const rejectsFile = await saveRejects(store, job.name, pass);
  const tooMany = rejectRatioProblem(job.limits.max_reject_ratio, pass, rejectsFile);
  const limit = job.limits.daily_unique_recipients;
  // A pool sends from every number at once: the busiest number's share of the contacts sets the pace.
  const busiest = pass.byNumber ? Math.max(...Object.values(pass.byNumber)) : 0;
  const poolScale = busiest > 0 ? pass.wouldSendNow / busiest : 1;
  const estimate = estimateSend({
    contacts: pass.wouldSendNow,
    requests: pass.requestsNow,
    owedSteps: pass.owedSteps,
    rate: { per_second: job.rate.per_second * poolScale, ...(job.rate.per_minute !== undefined && { per_minute: job.rate.per_minute * poolScale }) },
    start: now,
    ...(job.send_window && { window: job.send_window, zones: pass.sendZones }),
    ...(limit !== undefined && { room: await messagingRoom(store, limit, now), waitingForRoom: pass.byAction['defer:daily_limit'] ?? 0 }),
  });
  return {
    job: job.name,
    channel: prepared.channel,
    ...(prepared.pool.length > 1 && { pool: prepared.pool }),
    files: prepared.files,
    preflightWarnings: [...prepared.warnings, ...off],
    ...pass,
    messagedByOtherJobs,
    rejectsFile,
    ...(tooMany !== undefined && { tooManyRejects: tooMany }),
    ...(view && { already: summarise(view.states).byStatus }),
    ...(pinned.changes !== undefined && { contentChanges: pinned.changes }),
    ...(pinned.continuedFrom && { continuedFrom: pinned.continuedFrom }),
    now,
    ...(pass.byNumber && { poolSeconds: Math.ceil(busiest / job.rate.per_second) }),
    estimate,
    ...(prepared.followUp && { followUp: prepared.followUp }),
  };
}

/** rejects.csv for people, and the rejected rows for the store (so they are never sent, nor counted as pending). */
export async function saveRejects(store: StateStore, job: string, pass: Pick<PlanPass, 'rejects'>): Promise<string> {
  const file = store.jobFiles(job).rejects;
  await writeRejects(file, pass.rejects);
  await store.savePlanRejects(job, pass.rejects);
  return file;
}
