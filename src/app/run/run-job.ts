import type { BudgetHolder, HeaderEvent } from '../../checkpoint/index.js';
import { createRateLimiter, type SenderPool } from '../../run/index.js';
import { checkContent, describePlace, type JobPlace, type PinnedContent } from '../load/index.js';
import { AppError } from '../errors.js';
import { experimentLookup, type ExperimentLookup } from '../experiment/index.js';
import { decideIfDue } from './experiment-decision.js';
import { noteFollowUp } from '../follow-up/index.js';
import { writeJobReport } from '../report/index.js';
import { newStateId, ownState, OtherJobsTally } from '../account/index.js';
import { planLookups, type PlanLookups, saveRejects } from '../plan/index.js';
import type { Prepared } from '../prepare/index.js';
import { repliesOf } from '../delivery/index.js';
import type { RunJobOptions, Running } from './options.js';
import { outcomeOf, type RunOutcome } from './outcome.js';
import { listSize, openSendPass, settledProgress, settlePass } from './open-and-settle.js';
import { RunSoFar } from './so-far.js';
import { collaborators, sendList, type SendNotes } from './sends.js';
import { poolFigures } from './sender-pool.js';
import { silentLogger } from '../silent-logger.js';
import { recordStoreStop, storeFault, storeStopped } from './store-stopped.js';
import { writeSummary } from './summary-file.js';

/** How often a run re-reads the windows that the webhook receiver writes meanwhile. */
const WINDOW_REFRESH_MS = 30_000;

/**
 * run and resume: takes the job's lock, checks the content against the state, plans the list,
 * pins the content, and sends each contact that may go now through the rate limiter, every request
 * recorded before it leaves. Ends with the report and the summary written where the store says.
 */
export async function runJob(prepared: Prepared, given: RunJobOptions): Promise<RunOutcome> {
  const { job } = prepared;
  // The job's company's part of the store: its jobs by name, its suppression list, ledger, limit and windows.
  const options = { ...given, store: given.store.account(job.company_id) };
  const { store, command } = options;
  const clock = options.clock ?? Date.now;
  const logger = options.logger ?? silentLogger();
  // An experiment whose decision is due decides first (tracking the test when it is stale), so this run sends the winner.
  await decideIfDue(prepared, { store, api: options.api, owner: options.owner, clock, logger, ...(options.signal && { signal: options.signal }) });
  const state = await store.openJob(job.name, { ...options.owner, jobFile: prepared.jobFile, startedAt: new Date(clock()).toISOString(), command });
  const limiter = options.limiter ?? createRateLimiter({ perSecond: job.rate.per_second, ...(job.rate.per_minute ? { perMinute: job.rate.per_minute } : {}) });
  const lookups: PlanLookups = await planLookups(store, job, options.refreshEveryMs, ownState(state.header));
  let holder: BudgetHolder | undefined;
  const refresh = setInterval(() => {
    store.windows().then((w) => (lookups.windows = w), (err: unknown) => logger.warn({ err }, 'could not re-read the window store'));
  }, WINDOW_REFRESH_MS);
  refresh.unref();
  const soFar = new RunSoFar();
  let stopped: AppError | undefined;
  try {
    // The messaging limit is the store's: a run with one takes its places from the store (budget-places.ts).
    if (job.limits.daily_unique_recipients !== undefined) holder = await store.budgetHolder();
    return await sendAll(prepared, options, { state, limiter, lookups, clock, logger, soFar, ...(holder && { holder }) });
  } catch (err) {
    // The store could not keep a write, or stayed unreachable past its patience: nothing more was sent.
    const fault = storeFault(err);
    if (fault === undefined) throw err;
    stopped = storeStopped(fault, soFar.inFlight().length);
    throw stopped;
  } finally {
    clearInterval(refresh);
    // Whatever the run did not use goes back to the other jobs and processes of the store (a place not given back lapses in minutes).
    await holder?.release().catch((err: unknown) => logger.warn({ err }, 'could not give back the unused places of the messaging limit; they lapse within 5 minutes'));
    await limiter.stop().catch(() => undefined);
    await state.close().catch(() => undefined);
    options.onSendsOver?.();
    // Last: the stopped run's summary.json and run.log's last line.
    if (stopped) await recordStoreStop(state, logger, { job: job.name, command, message: stopped.message, soFar, finishedAt: clock() });
  }
}

/**
 * The run once its job is held, as a straight line: the content checked, the list's read opened (a
 * guard on its first rows before anything is sent), the content pinned, the collaborators built, the
 * list sent, the list settled, the report and the outcome written.
 */
async function sendAll(prepared: Prepared, options: RunJobOptions, run: Running): Promise<RunOutcome> {
  announceState(run);
  const content = await checkedContent(prepared, options, run);
  const progress = settledProgress(options.onProgress);
  const otherJobs = new OtherJobsTally(prepared.job, run.lookups.compliance?.ledger);
  const read = await startListRead(prepared, options, run, { onSettled: progress.settled, otherJobs });
  try {
    const firstRun = await pinContent(prepared, options, run, content.pinned);
    await announceRun(prepared, options, run, read, firstRun);
    const sending = await collaborators(prepared, options, run, read.pass);
    const notes: SendNotes = { lateRejects: [], lateRejected: new Set(), optedOut: [] };
    const result = await sendList(prepared, options, run, { sending, pass: read.pass, progress, notes });
    await sending.ledger?.flush();
    const finished = run.clock();
    const settled = await settlePass(options.store, prepared, read, { rejects: notes.lateRejects, phones: notes.lateRejected }, { ...(options.cutSignal && { cut: options.cutSignal }), logger: run.logger });
    const replies = await repliesOf(options.store, run.state.states);
    await writeJobReport(run.state.files.report, run.state.states, { listing: settled.listing, replies }, prepared.job, content.experiment?.winner);
    const outcome = outcomeOf({
      job: prepared.job.name,
      command: options.command,
      state: run.state,
      result,
      pass: read.pass,
      settled,
      replies,
      started: sending.started,
      finished,
      firstRun,
      optedOut: notes.optedOut,
      concurrency: sending.concurrency,
      bound: sending.bound(),
      messagedByOtherJobs: otherJobs.result(),
      continuedFrom: content.pinned.continuedFrom,
      missed: sending.missed.outcome(),
    });
    return finishRun(prepared, run, outcome, sending.pool);
  } finally {
    // The list's read (and its worker) stops whatever happened; once settled, it already has.
    await read.pass.close();
  }
}

/** What the store said of the job as it opened it: a take-over of a gone owner, and its notices. */
function announceState({ state, logger }: Running): void {
  if (state.tookOverFrom !== undefined) logger.warn({ event: 'took_over', owner: state.tookOverFrom }, `took over the job from pid ${state.tookOverFrom.pid} on host ${state.tookOverFrom.host}, which is gone`);
  for (const notice of state.notices) logger[notice.level]({ event: 'store_notice' }, notice.message);
}

/** The job's content against the one its state pinned (refused when it changed, unless forced), and an experiment's lookup. */
async function checkedContent(prepared: Prepared, options: RunJobOptions, run: Running): Promise<{ pinned: PinnedContent; experiment?: ExperimentLookup }> {
  const { job } = prepared;
  const { logger } = run;
  const pinned = checkContent(job, { file: prepared.jobFile, ...(options.owner.host !== undefined && { host: options.owner.host }) }, run.state.header, options.forceChanged === true);
  if (pinned.continuedFrom) logger.info({ startedFrom: pinned.continuedFrom }, `continuing job ${job.name} started from ${describePlace(pinned.continuedFrom)}`);
  const experiment = await experimentLookup(options.store, job, run.state.states);
  if (experiment) run.lookups.experiment = experiment;
  if (pinned.changes) logger.warn({ event: 'content_changed', changes: pinned.changes }, 'message content changed; going on with --force-changed');
  return { pinned, ...(experiment && { experiment }) };
}

/**
 * One read of the list feeds the send and counts what a plan pass would (send-pass.ts). Its first
 * rows are read ahead: too many rejects among them stops the run before anything is sent (exit 2).
 */
async function startListRead(prepared: Prepared, options: RunJobOptions, run: Running, counts: { onSettled: (alreadyDone: number) => void; otherJobs: OtherJobsTally }): Promise<ListRead> {
  const { store } = options;
  const { state, logger } = run;
  const read = await openSendPass(prepared, { lookups: run.lookups, clock: run.clock, states: state.states, mode: options.mode, ...counts, store }, state.files.rejects);
  if (read.picked) {
    const { items, settled, newRows } = read.picked;
    logger.info({ event: 'list_resumed', rows: items.length, settled, new_rows: newRows }, newRows > 0 ? 'going on from the listing of the list it grew from: only the rows left and the new rows are read' : 'going on from the listing of the list: only the rows left are read');
  }
  else if (read.whyWhole !== undefined) logger.debug({ event: 'list_read_whole', why: read.whyWhole }, 'reading the whole list');
  const { pass } = read;
  const tooMany = await pass.start().catch(async (err: unknown) => {
    await pass.close();
    throw err;
  });
  if (tooMany) {
    await pass.close();
    await saveRejects(store, prepared.job.name, pass);
    throw new AppError(tooMany, 'invalid');
  }
  return read;
}

/**
 * Pins the content in the state once sending starts (a run refused before it sent nothing). A header
 * only when the content changes (or an earlier version's header has no state id yet): the path and
 * host it was started from stay recorded (for people, never compared), and the state's id stays the
 * one its first header minted. Returns whether this is the job's first run (its state had no header).
 */
async function pinContent(prepared: Prepared, options: RunJobOptions, run: Running, pinned: PinnedContent): Promise<boolean> {
  const { state } = run;
  const firstRun = state.header === undefined;
  if (state.header !== undefined && state.header.fingerprint === pinned.fingerprint && state.header.state !== undefined) return firstRun;
  const here = { file: prepared.jobFile, ...(options.owner.host !== undefined && { host: options.owner.host }) };
  const header = {
    t: 'header',
    v: 1,
    job: prepared.job.name,
    fingerprint: pinned.fingerprint,
    content: pinned.content,
    // The same content: where it was started stays as it was.
    ...placeOf(state.header?.fingerprint === pinned.fingerprint ? state.header : undefined, here),
    state: state.header?.state ?? newStateId(),
  } as const;
  await state.record({ ...header, at: new Date(run.clock()).toISOString() });
  if (run.lookups.compliance) run.lookups.compliance.own = ownState(state.header);
  return firstRun;
}

/** The job's warnings, a follow-up's note on its earlier job, the list's size and the start, logged and told to the caller. */
async function announceRun(prepared: Prepared, options: RunJobOptions, run: Running, read: ListRead, firstRun: boolean): Promise<void> {
  const { job } = prepared;
  const { store, command } = options;
  const { logger, state } = run;
  for (const w of prepared.warnings) logger.warn({ event: 'job_warning' }, w);
  // A follow-up notes itself on its earlier job: that job's report.html links its numbers.
  if (job.follow_up) await noteFollowUp(store, job.follow_up.job, { job: job.name, who: job.follow_up.who.join(', ') });
  const contacts = read.picked ? read.picked.kept.size : await listSize(prepared, store, read.files);
  logger.info({ event: 'run_started', job: job.name, command, contacts, channel: prepared.channel }, 'starting');
  if (firstRun && command === 'resume') logger.info({ job: job.name }, 'resume of a job that never ran: this is its first run');
  options.onStart?.({ contacts, files: state.files, firstRun });
}

/** The run's read of its list: the pass that feeds the send, its files' fingerprint, and the listing's rows when the store kept them. */
type ListRead = Awaited<ReturnType<typeof openSendPass>>;

/** A pool's figures per number (logged, and its other numbers' limiters stopped), then summary.json and the run's last record. */
async function finishRun(prepared: Prepared, run: Running, outcome: RunOutcome, pool: SenderPool | undefined): Promise<RunOutcome> {
  const { logger } = run;
  if (pool) {
    outcome.numbers = poolFigures(pool, prepared.job.rate.per_second);
    for (const n of outcome.numbers) logger.info({ event: 'number_done', number: n }, `number ${n.channelId}: ${n.sent} sent, ${n.failed} failed${n.drained ? `, drained at ${n.drained.at}: ${n.drained.error}` : ''}`);
    await Promise.all(pool.numbers.slice(1).map((n) => n.limiter.stop().catch(() => undefined)));
  }
  await writeSummary(run.state.files.summary, outcome);
  logger.info({ event: 'run_finished', ...outcome }, 'finished');
  return outcome;
}

/** The place a new header records: the earlier header's (the same content, given a state id), else this job file's. */
function placeOf(earlier: HeaderEvent | undefined, here: JobPlace): { job_file: string; host?: string } {
  const file = earlier?.job_file ?? here.file ?? '';
  const host = earlier !== undefined ? earlier.host : here.host;
  return { job_file: file, ...(host !== undefined && { host }) };
}
