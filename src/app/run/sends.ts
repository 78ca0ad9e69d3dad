/**
 * The run's collaborators, built in one place (`collaborators`: the lookups, the journal with its
 * ledger, the numbers and their shares of the rate, the workers, the budget's places), and the list
 * sent through them by the executor (`sendList`).
 */
import type { CheckpointEvent } from '../../checkpoint/index.js';
import type { Contact, Reject } from '../../contacts/index.js';
import { boundWatch, execute, runConcurrency, shareGate, type ExecuteOptions, type ExecuteResult, type RateLimiter, type RunConcurrency, type SenderPool, type ShareGate } from '../../run/index.js';
import { shareNumbers, type RateShares } from '../../rate-share/index.js';
import { budgetPlaces, type BudgetPlaces } from './budget-places.js';
import { freshPass, REFRESH_EVERY_MS, type ComplianceLookups } from '../protection/index.js';
import { AppError } from '../errors.js';
import { missedWindowsWatch } from './missed-windows.js';
import { planContextFor, rememberedNumber } from '../plan/index.js';
import type { Prepared } from '../prepare/index.js';
import type { RunJobOptions, Running } from './options.js';
import type { settledProgress } from './open-and-settle.js';
import type { SendPass } from './send-pass.js';
import { senderPoolFor } from './sender-pool.js';
import { sendsLedger, type SendsLedger } from './sends-ledger.js';

/** A run's watch of the contacts deferred for quiet hours again after their window passed (missed-windows.ts). */
type MissedWindowsWatch = ReturnType<typeof missedWindowsWatch>;

/** What sends the list, built in one place (`collaborators`). */
export interface Collaborators {
  /** The account-protection lookups of the sends, counting the messaging limit afresh (nothing reserved before them). */
  compliance: ComplianceLookups | undefined;
  /** The run's first messages into the ledger, written ahead with their attempts. */
  ledger: SendsLedger | undefined;
  /** Every event of the send loop into the journal (and the ledger), told to `onRecorded` once durable. */
  record: (event: CheckpointEvent) => Promise<void>;
  missed: MissedWindowsWatch;
  /** The job's first number's limiter under this run's share of its rate; in a pool, every number's. */
  first: ShareGate;
  pool: SenderPool | undefined;
  shares: RateShares;
  concurrency: RunConcurrency;
  /** Says when the requests in flight keep the run below the asked rate. */
  bound: () => string | undefined;
  /** The run's places in the store's messaging limit, when the job sets one. */
  places: BudgetPlaces | undefined;
  started: number;
}

/** What the send collected beside the executor's counts: the contacts rejected only at send time, and the phones the provider says opted out. */
export interface SendNotes {
  lateRejects: Reject[];
  lateRejected: Set<string>;
  optedOut: string[];
}

/** The run's collaborators: the lookups, the journal and the ledger, the numbers and their shares of the rate, the workers, the budget's places. */
export async function collaborators(prepared: Prepared, options: RunJobOptions, run: Running, pass: SendPass): Promise<Collaborators> {
  const { job } = prepared;
  const { clock, state } = run;
  const compliance = run.lookups.compliance && (run.lookups.compliance = { ...freshPass(run.lookups.compliance), ...(run.holder && { holder: run.holder }) });
  const ledger = compliance && sendsLedger(compliance);
  const started = clock();
  run.soFar.startedAt = started;
  run.soFar.alreadyDone = () => pass.alreadyDone;
  // Every event the store kept: the contacts in flight are those with an attempt and no outcome yet.
  const journal = (event: CheckpointEvent) => state.record(event).then(() => run.soFar.recorded(event));
  const { onRecorded } = options;
  const durable = onRecorded ? (event: CheckpointEvent) => journal(event).then(() => onRecorded(event)) : journal;
  const { first, pool, shares } = await sendingNumbers(prepared, options, run, compliance);
  const concurrency = runConcurrency(job.rate, clock, pool && { ids: pool.numbers.map((n) => n.channel.id), live: (id) => !pool.isDrained(id) });
  const limit = job.limits.daily_unique_recipients;
  const places =
    run.holder && compliance && limit !== undefined
      ? budgetPlaces(run.holder, compliance, limit, { perSecond: concurrency.askedPerSecond, workers: concurrency.ceiling, refreshEveryMs: options.refreshEveryMs ?? REFRESH_EVERY_MS, clock })
      : undefined;
  return {
    compliance,
    ledger,
    record: ledger ? (event) => ledger.record(event, durable) : durable,
    missed: missedWindowsWatch(started),
    first,
    pool,
    shares,
    concurrency,
    bound: boundWatch(concurrency, clock),
    places,
    started,
  };
}

/**
 * The numbers the run sends from. A pool: one limiter per number, each at rate.per_second. Every
 * number sent from is shared with the other processes of the store that send from it: each takes a
 * share of its rate (`rate-share/`), through a gate on its limiter.
 */
async function sendingNumbers(prepared: Prepared, options: RunJobOptions, run: Running, compliance: ComplianceLookups | undefined): Promise<{ first: ShareGate; pool: SenderPool | undefined; shares: RateShares }> {
  const gates: Array<{ channel: number; gate: ShareGate }> = [];
  const shared = (channel: number, limiter: RateLimiter): ShareGate => {
    const gate = shareGate(limiter);
    gates.push({ channel, gate });
    return gate;
  };
  const first = shared(prepared.channel.id, run.limiter);
  const remembered = rememberedNumber(run.lookups, compliance && ((phone) => compliance.ledger.lastChannelOf(phone)));
  const pool = senderPoolFor(prepared.pool, first, prepared.job.rate, remembered, (channel, limiter) => shared(channel.id, limiter));
  const shares = await shareNumbers(options.store, gates, prepared.job.rate.per_second, { logger: run.logger });
  return { first, pool, shares };
}

/** The list through the executor, each contact decided again right before its send; the shares and places stop once it is over. */
export async function sendList(prepared: Prepared, options: RunJobOptions, run: Running, parts: { sending: Collaborators; pass: SendPass; progress: ReturnType<typeof settledProgress>; notes: SendNotes }): Promise<ExecuteResult> {
  const { sending, pass, notes } = parts;
  const { compliance, ledger, places, pool, concurrency } = sending;
  const { clock, state } = run;
  return execute({
    api: options.api,
    job: prepared.job,
    channel: prepared.channel,
    // Before each contact: a STOP or another job's sends since are seen by its decision, and places of the store's budget are held for it.
    contacts: refreshedBefore(pass.contacts(), compliance && (async () => {
      await compliance.refresh();
      await places?.beforeContact(clock());
    })),
    prior: (phone) => sending.missed.prior(phone, state.states.get(phone)),
    record: sending.record,
    limiter: sending.first,
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
    onOptedOut: optOut(options, clock, notes),
    onReject: (reject, contact) => {
      notes.lateRejects.push(reject);
      notes.lateRejected.add(contact.phone);
    },
    onResult: resultWatch(run, sending, parts.progress),
  })
    .catch(async (err: unknown) => {
      await pass.close();
      throw err;
    })
    .finally(() => {
      sending.shares.stop();
      places?.stop();
    });
}

/** A phone the provider says stopped marketing messages (131050): on the store's suppression list at once, for every job of it (this run's planner re-reads the list). */
function optOut(options: RunJobOptions, clock: () => number, notes: SendNotes): (phone: string, reason: string) => Promise<void> {
  return async (phone, reason) => {
    notes.optedOut.push(phone);
    try {
      await options.store.suppress([{ phone, reason, source: 'provider', at: new Date(clock()).toISOString() }]);
    } catch (err) {
      throw new AppError(`${phone} stopped marketing messages (131050) but could not be put on the suppression list (${err instanceof Error ? err.message : String(err)}); nothing more was sent: fix it, then \`outreach suppress add ${phone}\` and \`outreach resume\``, 'aborted');
    }
    await options.onOptedOut?.(phone, reason);
  };
}

/** After each contact: the counts a stop keeps, the ledger's hold, a missed window, the progress, and a contact not sent in the log. */
function resultWatch(run: Running, sending: Collaborators, progress: ReturnType<typeof settledProgress>): NonNullable<ExecuteOptions['onResult']> {
  const { logger } = run;
  return (contact, r, stats) => {
    run.soFar.stats = stats;
    sending.ledger?.settled(contact);
    sending.missed.result(contact.phone, r);
    const concurrencyBound = sending.bound();
    progress.result(stats, concurrencyBound === undefined ? {} : { concurrencyBound });
    if (r.kind === 'failed' || r.kind === 'in_doubt') logger.warn({ event: 'contact_not_sent', phone: contact.phone, line: contact.line, outcome: r.kind, error: r.error }, 'contact not sent');
    if ((r.kind === 'sent' || r.kind === 'untouched') && r.warnings.length > 0) logger.warn({ event: 'after_send_failed', phone: contact.phone, warnings: r.warnings }, 'after-send step failed');
  };
}

/** The contacts, each after `beforeEach` (a STOP or another job's sends since are seen by its decision). */
async function* refreshedBefore(contacts: AsyncIterable<Contact>, beforeEach?: () => Promise<void>): AsyncGenerator<Contact> {
  for await (const contact of contacts) {
    await beforeEach?.();
    yield contact;
  }
}
