import { abortableSleep } from '../../run/index.js';
import { funnelOf, type Funnel, repliesOf, noteTracked } from '../delivery/index.js';
import { suppressOptedOut } from './opted-out.js';
import { reconcileInDoubt, SETTLE_MINUTES, type ReconcileOutcome } from './reconcile-in-doubt.js';
import { readRate, withReadback, type ReadbackOptions } from './readback.js';
import { trackPass, type TrackPass } from './track-pass.js';

/** Between passes of `track --until-settled`, by default. */
/** Reads of `track` in flight: enough for `track.per_second` at half a second an answer, within these bounds. */
const READS_IN_FLIGHT = { min: 4, max: 64 };

export const TRACK_INTERVAL_MS = 60_000;

export interface TrackJobOptions extends ReadbackOptions {
  /** Pass after pass until every sent contact is settled (read, failed, or too old), `intervalMs` apart. */
  untilSettled?: boolean;
  intervalMs?: number;
  /** reconcile's settling delay (default 5). */
  settleMinutes?: number;
  /** Waits between passes; by default a timer that the signal cuts short. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** After each pass. */
  onPass?: (pass: TrackPass, n: number) => void;
  /** Before each pass's first read: how many messages it reads, at what pace, and about how long that takes. */
  onPassStart?: (info: PassStart) => void;
}

/** What a pass is about to read: `due` messages at up to `perSecond`, about `estimatedMs`. */
export interface PassStart {
  job: string;
  pass: number;
  due: number;
  perSecond: number;
  estimatedMs: number;
}

/**
 * What `track` did: a pass's counts (TrackPass), summed over the passes (`optedOut` joined, `firstError`
 * the first; `unsettled`: sent contacts still to watch after the last, run track again later).
 */
export interface TrackOutcome extends Omit<TrackPass, 'due'> {
  job: string;
  /** What reading back the contacts in doubt gave (track reconciles first). */
  reconcile: ReconcileOutcome;
  passes: number;
  /** Set when the signal stopped it before it was done. */
  stopped?: 'interrupted';
  funnel: Funnel;
  /** Contacts still in doubt, and reads of the last pass that failed: zero when everything could be read. */
  notDone: number;
}

/**
 * `outreach track`: reconciles the contacts in doubt, then reads the message of every sent contact
 * not settled yet and records its delivery, read or failure (with the provider's code). Incremental:
 * a settled contact is not read again, so cron can call it hourly. With `untilSettled`, repeats
 * every `intervalMs` until no sent contact is left to watch, or the signal aborts.
 */
export async function trackJob(jobPath: string, options: TrackJobOptions): Promise<TrackOutcome> {
  return withReadback(jobPath, 'track', options, async ({ loaded, store, list, state, reads, clock, logger }) => {
    const { job } = loaded;
    const { signal } = options;
    const sleep = options.sleep ?? abortableSleep;
    const reconcile = await reconcileInDoubt({ list, state, reads, now: clock(), settleMs: (options.settleMinutes ?? SETTLE_MINUTES) * 60_000 });
    const totals = { passes: 0, checked: 0, changed: 0, notFound: 0, errors: 0, optedOut: [] as string[], unsettled: 0, firstError: undefined as string | undefined };
    let lastErrors = 0;
    const { perSecond } = readRate(job);
    for (;;) {
      const n = totals.passes + 1;
      // A reply settles a contact: its message is not read again (read afresh each pass: the receiver records replies meanwhile).
      const replied = await repliesOf(store, state.states);
      const pass = await trackPass({
        state,
        reads,
        now: clock(),
        maxAgeMs: job.track.max_age_hours * 3_600_000,
        // Reads in flight: sized from the read rate, not the job's concurrency of messages (the limiter holds the rate).
        concurrency: Math.min(READS_IN_FLIGHT.max, Math.max(READS_IN_FLIGHT.min, Math.ceil(perSecond / 2))),
        onOptedOut: (phone) => suppressOptedOut(store, [phone]),
        replied,
        onStart: (due) => options.onPassStart?.({ job: job.name, pass: n, due, perSecond, estimatedMs: Math.round((due / perSecond) * 1000) }),
        ...(signal && { signal }),
      });
      totals.passes += 1;
      totals.checked += pass.checked;
      totals.changed += pass.changed;
      totals.notFound += pass.notFound;
      totals.errors += pass.errors;
      totals.firstError ??= pass.firstError;
      totals.optedOut.push(...pass.optedOut);
      totals.unsettled = pass.unsettled;
      lastErrors = pass.errors;
      logger.info({ job: job.name, pass: totals.passes, ...pass }, 'track pass');
      options.onPass?.(pass, totals.passes);
      if (!options.untilSettled || pass.unsettled === 0 || signal?.aborted) break;
      try {
        await sleep(options.intervalMs ?? TRACK_INTERVAL_MS, signal);
      } catch {
        break; // the signal cut the wait short
      }
      if (signal?.aborted) break;
    }
    // A follow-up tells what "not read" means from this; an experiment, whether its rates are fresh.
    if (!signal?.aborted) await noteTracked(store, job.name, clock());
    const funnel = funnelOf(state.states.values(), await repliesOf(store, state.states));
    const { firstError, ...counts } = totals;
    return {
      job: job.name,
      reconcile,
      ...counts,
      ...(firstError !== undefined && { firstError }),
      ...(signal?.aborted && { stopped: 'interrupted' as const }),
      funnel,
      notDone: reconcile.unresolved.length + lastErrors,
    };
  });
}
