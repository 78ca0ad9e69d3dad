import { NO_ANSWER, type ContactState, type ContactStates, type InDoubtState } from '../../checkpoint/index.js';
import { deferredCounter, summaryCounter, type DeferredGroup, type Summary, type SummaryOptions } from '../../report/index.js';
import { funnelCounter, type Funnel } from '../delivery/index.js';

/** The counts status, report and run show of a job's states. */
export interface StatesDigest {
  summary: Summary;
  funnel: Funnel;
  deferred: DeferredGroup[];
}

/** How the states are digested: the summary's options but which requests are in flight, told by `runSince`. */
export type DigestOptions = Omit<SummaryOptions, 'inFlight'> & {
  replies: ReadonlyMap<string, string>;
  /** The start (ISO) of the run holding the job now, if one does: its requests without an answer yet are in flight (`inFlightSince`). */
  runSince?: string;
};

/**
 * The summary, the funnel and the deferred groups, from the states' counted status (`tallies`: the
 * store sums its counters, no state read). `also` sees each state too (the page's own counts), so it
 * reads them instead, once: a million states held in columns are decoded once, not once per count.
 */
export function digestStates(states: ContactStates, digest: DigestOptions, also?: (s: ContactState) => void): StatesDigest {
  const { runSince, ...given } = digest;
  const options = { ...given, ...(runSince !== undefined && { inFlight: inFlightSince(runSince) }) };
  const { replies, ...summaryOptions } = options;
  // The attempts' times count only for a request in flight (a run holds the job): the tallies then come in two by the run's start.
  if (also === undefined) return digestTallies(states, states.tallies(runSince === undefined ? {} : { attemptsSince: Date.parse(runSince) }), options);
  const summary = summaryCounter(summaryOptions);
  const funnel = funnelCounter(replies);
  const deferred = deferredCounter();
  for (const s of states.values()) {
    summary.add(s);
    funnel.add(s);
    deferred.add(s);
    also?.(s);
  }
  return { summary: summary.result(states.size), funnel: funnel.result(), deferred: deferred.result() };
}

/** The same counts from the counters: each tally counted as many times as states have it; the replies (by phone) counted apart. */
function digestTallies(
  states: ContactStates,
  tallies: Iterable<{ state: ContactState; count: number }>,
  options: SummaryOptions & { replies: ReadonlyMap<string, string> },
): StatesDigest {
  const { replies, ...summaryOptions } = options;
  const none = new Map<string, string>();
  const summary = summaryCounter(summaryOptions);
  const funnel = funnelCounter(none);
  const deferred = deferredCounter();
  for (const { state, count } of tallies) {
    summary.add(state, count);
    funnel.add(state, count);
    deferred.add(state, count);
  }
  // A reply counts for a sent contact (the replies are matched on the sent ones: a few, looked up by phone).
  let replied = 0;
  for (const phone of replies.keys()) if (states.statusOf(phone) === 'sent') replied += 1;
  const f = funnel.result();
  f.replied = replied;
  return { summary: summary.result(states.size), funnel: f, deferred: deferred.result() };
}

/**
 * Whether an in-doubt contact is a request of the run that started at `since` (ISO) still waiting for
 * its answer: no answer recorded to an attempt made since the run took the job (an older one is in
 * doubt still). The counted status's tallies come split at the same time (`attemptsSince`).
 */
export function inFlightSince(since: string): (s: InDoubtState) => boolean {
  const start = Date.parse(since);
  return (s) => {
    if (s.error !== NO_ANSWER) return false;
    if (Number.isNaN(start) || s.attemptAt === undefined) return true;
    const at = Date.parse(s.attemptAt);
    return Number.isNaN(at) || at >= start;
  };
}
