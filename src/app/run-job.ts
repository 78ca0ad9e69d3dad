import type { Logger } from 'pino';
import type { ApiClient } from '../api/index.js';
import { type BudgetHolder, type HeaderEvent, type JobFiles, type JobOwner, type JobStore, type StateStore, type CheckpointEvent } from '../checkpoint/index.js';
import type { Contact, Reject } from '../contacts/index.js';
import { boundWatch, createRateLimiter, execute, runConcurrency, shareGate, type RateLimiter, type RetryMode, type RunStats, type ShareGate } from '../run/index.js';
import { shareNumbers } from './rate-shares.js';
import { senderPoolFor, poolFigures } from './sender-pool.js';
import { checkContent, describePlace, type JobPlace } from './content-guard.js';
import { AppError } from './errors.js';
import { recordStoreStop, storeFault, storeStopped } from './store-stopped.js';
import { RunSoFar } from './run-so-far.js';
import { contactsNotDone, writeJobReport } from './job-report.js';
import { budgetPlaces } from './budget-places.js';
import { experimentLookup } from './experiment.js';
import { decideIfDue } from './experiment-decide.js';
import { noteFollowUp } from './follow-up-links.js';
import { freshPass, REFRESH_EVERY_MS } from './compliance.js';
import { OtherJobsTally } from './other-jobs.js';
import { planContextFor, planLookups, rememberedNumber, type PlanLookups } from './plan-context.js';
import { newStateId, ownState } from './job-state-id.js';
import { saveRejects } from './plan-job.js';
import type { Prepared } from './prepare.js';
import { countPending } from './listing.js';
import { repliesOf } from './replies.js';
import { digestStates } from './states-digest.js';
import { listSize, openSendPass, settledProgress, settlePass } from './run-pass.js';
import type { SendPass } from './send-pass.js';
import { sendsLedger } from './sends-ledger.js';
import { concurrencyOutcome, type RunOutcome } from './run-outcome.js';
import { missedWindowsWatch } from './missed-windows.js';
import { silentLogger } from './silent-logger.js';
import { writeSummary } from './summary-file.js';

/** How often a run re-reads the windows that the webhook receiver writes meanwhile. */
const WINDOW_REFRESH_MS = 30_000;

export interface RunJobOptions {
  store: StateStore;
  api: ApiClient;
  command: 'run' | 'resume';
  /** Which earlier outcomes are taken up again (resume: retryable failures; --retry-in-doubt: in doubt too). */
  mode: RetryMode;
  /** Who runs it (the lock's content). */
  owner: Omit<JobOwner, 'startedAt' | 'command'>;
  /** Send even though the content changed since the job's state started. */
  forceChanged?: boolean;
  /** Abort to stop taking contacts; requests in flight finish. */
  signal?: AbortSignal;
  /** Abort to cut requests in flight (after a bounded wait). */
  cutSignal?: AbortSignal;
  clock?: () => number;
  /** Waits (retry backoffs, the provider's pair-rate wait); returns early when the signal aborts. Tests shorten it. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  logger?: Logger;
  /** Before the first contact: how many contacts the list holds, and whether the job never ran before (a `resume` of it is its first run). */
  onStart?: (info: { contacts: number; files: JobFiles; firstRun: boolean }) => void;
  /** After each contact; `concurrencyBound` says when a fixed concurrency keeps the run below the asked rate. */
  onProgress?: (stats: RunStats, live: { concurrencyBound?: string }) => void;
  /** Once no more is sent, before a run the store stopped writes its last records (the progress ends there, so that they stay last). */
  onSendsOver?: () => void;
  /** A limiter of the caller's (tests); by default one at the job's rate. */
  limiter?: RateLimiter;
  /**
   * How often at most (wall ms) the run reads again what other processes write to the store (a STOP
   * through the receiver, `suppress add`, another job's first messages) before deciding a contact;
   * default 100. 0 reads it before every contact.
   */
  refreshEveryMs?: number;
  /** Told when the provider says a person stopped marketing messages (131050); the phone is already on the store's suppression list. */
  onOptedOut?: (phone: string, reason: string) => Promise<void>;
  /** Told each event of the send loop once it is durable (the metrics count first messages sent and the provider's refusals from them). */
  onRecorded?: (event: CheckpointEvent) => void;
}

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

interface Running {
  state: JobStore;
  limiter: RateLimiter;
  lookups: PlanLookups;
  clock: () => number;
  logger: Logger;
  /** The run's places in the store's messaging limit, when the job sets one. */
  holder?: BudgetHolder;
  /** Its counts and the contacts in flight, for the record a stop by the store leaves. */
  soFar: RunSoFar;
}

async function sendAll(prepared: Prepared, options: RunJobOptions, run: Running): Promise<RunOutcome> {
  const { store, command } = options;
  const { job } = prepared;
  const { state, clock, logger } = run;
  if (state.tookOverFrom !== undefined) logger.warn({ event: 'took_over', owner: state.tookOverFrom }, `took over the job from pid ${state.tookOverFrom.pid} on host ${state.tookOverFrom.host}, which is gone`);
  for (const notice of state.notices) logger[notice.level]({ event: 'store_notice' }, notice.message);

  const pinned = checkContent(job, { file: prepared.jobFile, ...(options.owner.host !== undefined && { host: options.owner.host }) }, state.header, options.forceChanged === true);
  if (pinned.continuedFrom) logger.info({ startedFrom: pinned.continuedFrom }, `continuing job ${job.name} started from ${describePlace(pinned.continuedFrom)}`);
  const experiment = await experimentLookup(store, job, state.states);
  if (experiment) run.lookups.experiment = experiment;
  if (pinned.changes) logger.warn({ event: 'content_changed', changes: pinned.changes }, 'message content changed; going on with --force-changed');
  // One read of the list feeds the send and counts what a plan pass would (send-pass.ts).
  const progress = settledProgress(options.onProgress);
  const otherJobs = new OtherJobsTally(job, run.lookups.compliance?.ledger);
  const read = await openSendPass(prepared, { lookups: run.lookups, clock, states: state.states, mode: options.mode, onSettled: progress.settled, otherJobs, store }, state.files.rejects);
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
    await saveRejects(store, job.name, pass);
    throw new AppError(tooMany, 'invalid');
  }
  // A job whose state has no header never sent: this is its first run, whichever command started it.
  const firstRun = state.header === undefined;
  // The content is pinned only once sending starts: a run refused before it sent nothing.
  // A header only when the content changes (or an earlier version's header has no state id yet): the path and host it was
  // started from stay recorded (for people, never compared), and the state's id stays the one its first header minted.
  if (state.header?.fingerprint !== pinned.fingerprint || state.header.state === undefined) {
    const id = state.header?.state ?? newStateId();
    const header = {
      t: 'header',
      v: 1,
      job: job.name,
      fingerprint: pinned.fingerprint,
      content: pinned.content,
      // The same content: where it was started stays as it was.
      ...placeOf(state.header?.fingerprint === pinned.fingerprint ? state.header : undefined, { file: prepared.jobFile, ...(options.owner.host !== undefined && { host: options.owner.host }) }),
      state: id,
    } as const;
    await state.record({ ...header, at: new Date(clock()).toISOString() });
    if (run.lookups.compliance) run.lookups.compliance.own = ownState(state.header);
  }
  for (const w of prepared.warnings) logger.warn({ event: 'job_warning' }, w);
  // A follow-up notes itself on its earlier job: that job's report.html links its numbers.
  if (job.follow_up) await noteFollowUp(store, job.follow_up.job, { job: job.name, who: job.follow_up.who.join(', ') });
  const contacts = read.picked ? read.picked.kept.size : await listSize(prepared, store, read.files);
  logger.info({ event: 'run_started', job: job.name, command, contacts, channel: prepared.channel }, 'starting');
  if (firstRun && command === 'resume') logger.info({ job: job.name }, 'resume of a job that never ran: this is its first run');
  options.onStart?.({ contacts, files: state.files, firstRun });

  // The sends count the messaging limit afresh: nothing reserved before them (the read's planner only looks for rejects).
  const compliance = run.lookups.compliance && (run.lookups.compliance = { ...freshPass(run.lookups.compliance), ...(run.holder && { holder: run.holder }) });
  const ledger = compliance && sendsLedger(compliance);
  const started = clock();
  run.soFar.startedAt = started;
  run.soFar.alreadyDone = () => pass.alreadyDone;
  // Every event the store kept: the contacts in flight are those with an attempt and no outcome yet.
  const journal = (event: CheckpointEvent) => state.record(event).then(() => run.soFar.recorded(event));
  const missed = missedWindowsWatch(started);
  // Contacts rejected only at send time (the window moved and another message, with an empty placeholder, was chosen).
  const lateRejects: Reject[] = [];
  const lateRejected = new Set<string>();
  const optedOut: string[] = [];
  // A pool: one limiter per number, each at rate.per_second, and under "auto" one concurrency controller per number (its own answer times); the workers are their sum.
  // Every number sent from is shared with the other processes of the store that send from it: each takes a share of its rate (rate-shares.ts).
  const gates: Array<{ channel: number; gate: ShareGate }> = [];
  const shared = (channel: number, limiter: RateLimiter): ShareGate => {
    const gate = shareGate(limiter);
    gates.push({ channel, gate });
    return gate;
  };
  const first = shared(prepared.channel.id, run.limiter);
  const pool = senderPoolFor(prepared.pool, first, job.rate, rememberedNumber(run.lookups, compliance && ((phone) => compliance.ledger.lastChannelOf(phone))), (channel, limiter) => shared(channel.id, limiter));
  const shares = await shareNumbers(store, gates, job.rate.per_second, { logger });
  const concurrency = runConcurrency(job.rate, clock, pool && { ids: pool.numbers.map((n) => n.channel.id), live: (id) => !pool.isDrained(id) });
  const bound = boundWatch(concurrency, clock);
  const limit = job.limits.daily_unique_recipients;
  const { onRecorded } = options;
  const recordState = onRecorded
    ? async (event: CheckpointEvent) => {
        await journal(event);
        onRecorded(event);
      }
    : journal;
  const places =
    run.holder && compliance && limit !== undefined
      ? budgetPlaces(run.holder, compliance, limit, { perSecond: concurrency.askedPerSecond, workers: concurrency.ceiling, refreshEveryMs: options.refreshEveryMs ?? REFRESH_EVERY_MS, clock })
      : undefined;
  const result = await execute({
    api: options.api,
    job,
    channel: prepared.channel,
    // Before each contact: a STOP or another job's sends since are seen by its decision, and places of the store's budget are held for it.
    contacts: refreshedBefore(pass.contacts(), compliance && (async () => {
      await compliance.refresh();
      await places?.beforeContact(clock());
    })),
    prior: (phone) => missed.prior(phone, state.states.get(phone)),
    record: ledger ? (event) => ledger.record(event, recordState) : recordState,
    limiter: first,
    ...(pool && { pool }),
    mode: options.mode,
    concurrency: concurrency.ceiling,
    controller: concurrency.controller,
    // In a pool the window is the contact's number's: the number it goes from now (a drained one's contacts have moved).
    planContext: (contact, now) => planContextFor(run.lookups, contact, now, pool && { from: pool.numberFor(contact.phone)?.number.channel.id }),
    ...(ledger && { onDecided: ledger.onDecided }),
    clock,
    ...(options.sleep && { sleep: options.sleep }),
    ...(options.signal && { stopSignal: options.signal }),
    ...(options.cutSignal && { requestSignal: options.cutSignal }),
    onOptedOut: async (phone, reason) => {
      optedOut.push(phone);
      // Every job of the state folder skips the phone from now on (this run too: the planner re-reads the list).
      try {
        await store.suppress([{ phone, reason, source: 'provider', at: new Date(clock()).toISOString() }]);
      } catch (err) {
        throw new AppError(`${phone} stopped marketing messages (131050) but could not be put on the suppression list (${err instanceof Error ? err.message : String(err)}); nothing more was sent: fix it, then \`outreach suppress add ${phone}\` and \`outreach resume\``, 'aborted');
      }
      await options.onOptedOut?.(phone, reason);
    },
    onReject: (reject, contact) => {
      lateRejects.push(reject);
      lateRejected.add(contact.phone);
    },
    onResult: (contact, r, stats) => {
      run.soFar.stats = stats;
      ledger?.settled(contact);
      missed.result(contact.phone, r);
      const concurrencyBound = bound();
      progress.result(stats, concurrencyBound === undefined ? {} : { concurrencyBound });
      if (r.kind === 'failed' || r.kind === 'in_doubt') logger.warn({ event: 'contact_not_sent', phone: contact.phone, line: contact.line, outcome: r.kind, error: r.error }, 'contact not sent');
      if ((r.kind === 'sent' || r.kind === 'untouched') && r.warnings.length > 0) logger.warn({ event: 'after_send_failed', phone: contact.phone, warnings: r.warnings }, 'after-send step failed');
    },
  })
    .catch(async (err: unknown) => {
      await pass.close();
      throw err;
    })
    .finally(() => {
      shares.stop();
      places?.stop();
    });
  await ledger?.flush();
  const finished = clock();
  const settled = await settlePass(store, prepared, read, { rejects: lateRejects, phones: lateRejected }, { ...(options.cutSignal && { cut: options.cutSignal }), logger });

  const replies = await repliesOf(store, state.states);
  const listed = settled.listing;
  await writeJobReport(state.files.report, state.states, { listing: listed, replies }, job, experiment?.winner);
  // Contacts of the list the state has not seen; the state's own pending contacts (reconciled as not sent) are counted by summarise.
  const listOnly = countPending(listed, state.states);
  const { summary, deferred } = digestStates(state.states, { startedAt: new Date(started), finishedAt: new Date(finished), sentThisRun: result.stats.sent, pending: listOnly, replies });
  const pending = summary.byStatus.pending;
  const { stats } = result;
  const outcome: RunOutcome = {
    job: job.name,
    command,
    ...(result.stopReason && { stopped: { reason: result.stopReason, message: result.stopMessage ?? result.stopReason } }),
    ...(!result.stopReason && listStop(pass)),
    ...(settled.incomplete && {
      listIncomplete: `the list was read up to ${settled.incomplete.lastRow ? `line ${settled.incomplete.lastRow.line} of ${settled.incomplete.lastRow.file}` : 'its start'} only: the report and the pending count leave out the rows after it (\`outreach status\` reads it whole)`,
    }),
    thisRun: {
      sent: stats.sent,
      failed: stats.failed,
      inDoubt: stats.inDoubt,
      skipped: stats.skipped,
      deferred: stats.deferred,
      alreadyDone: stats.untouched + pass.alreadyDone,
      warnings: stats.warnings,
      durationMs: finished - started,
    },
    summary,
    pending,
    rejected: settled.rejected,
    notDone: contactsNotDone(summary),
    deferred,
    files: state.files,
    optedOut,
    ...concurrencyOutcome(concurrency, result.peakInFlight, bound()),
    messagedByOtherJobs: otherJobs.result(),
    ...(state.tookOverFrom !== undefined && { tookOverFrom: state.tookOverFrom }),
    ...(pinned.continuedFrom && { continuedFrom: pinned.continuedFrom }),
    ...missed.outcome(),
    ...(firstRun && { firstRun: true as const }),
  };
  if (pool) {
    outcome.numbers = poolFigures(pool, job.rate.per_second);
    for (const n of outcome.numbers) logger.info({ event: 'number_done', number: n }, `number ${n.channelId}: ${n.sent} sent, ${n.failed} failed${n.drained ? `, drained at ${n.drained.at}: ${n.drained.error}` : ''}`);
    await Promise.all(pool.numbers.slice(1).map((n) => n.limiter.stop().catch(() => undefined)));
  }
  await writeSummary(state.files.summary, outcome);
  logger.info({ event: 'run_finished', ...outcome }, 'finished');
  return outcome;
}

/** The place a new header records: the earlier header's (the same content, given a state id), else this job file's. */
function placeOf(earlier: HeaderEvent | undefined, here: JobPlace): { job_file: string; host?: string } {
  const file = earlier?.job_file ?? here.file ?? '';
  const host = earlier !== undefined ? earlier.host : here.host;
  return { job_file: file, ...(host !== undefined && { host }) };
}

/** Why the list stopped the run, if it did: too many rejects so far, or a row the loader could not read (the contacts before it were sent). */
function listStop(pass: SendPass): Pick<RunOutcome, 'stopped'> {
  if (pass.stoppedForRejects !== undefined) return { stopped: { reason: 'reject_ratio', message: `stopped: ${pass.stoppedForRejects}` } };
  if (pass.listError !== undefined) {
    const sent = 'the contacts before it were handled and are in the report';
    return { stopped: { reason: 'list_error', message: `stopped: ${pass.listError.message}; ${sent}: fix the file, then \`outreach resume\` goes on without sending anyone twice` } };
  }
  return {};
}

/** The contacts, each after `beforeEach` (a STOP or another job's sends since are seen by its decision). */
async function* refreshedBefore(contacts: AsyncIterable<Contact>, beforeEach?: () => Promise<void>): AsyncGenerator<Contact> {
  for await (const contact of contacts) {
    await beforeEach?.();
    yield contact;
  }
}
