import type { ContactState, ContactStates } from '../../checkpoint/index.js';
import { deferredCounter, summaryCounter, type DeferredGroup, type Summary, type SummaryOptions } from '../../report/index.js';
import { funnelCounter, type Funnel } from '../delivery/index.js';

/** The counts status, report and run show of a job's states. */
export interface StatesDigest {
  summary: Summary;
  funnel: Funnel;
  deferred: DeferredGroup[];
}

/**
 * The summary, the funnel and the deferred groups, from the states' counted status (`tallies`: the
 * store sums its counters, no state read). `also` sees each state too (the page's own counts), so it
 * reads them instead, once: a million states held in columns are decoded once, not once per count.
 */
export function digestStates(
  states: ContactStates,
  options: SummaryOptions & { replies: ReadonlyMap<string, string> },
  also?: (s: ContactState) => void,
): StatesDigest {
  const { replies, ...summaryOptions } = options;
  // The attempts' times count only for a request in flight (a run holds the job): else a tally per time is one.
  if (also === undefined) return digestTallies(states, states.tallies({ attemptTimes: options.inFlight !== undefined }), options);
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
