import type { ContactState } from '../checkpoint/index.js';
import { deferredCounter, summaryCounter, type DeferredGroup, type Summary, type SummaryOptions } from '../report/index.js';
import { funnelCounter, type Funnel } from './funnel.js';

/** The counts status, report and run show of a job's states. */
export interface StatesDigest {
  summary: Summary;
  funnel: Funnel;
  deferred: DeferredGroup[];
}

/**
 * The summary, the funnel and the deferred groups from one read of the states: a million states held
 * in columns are decoded once, not once per count. `also` sees each state too (the page's own counts).
 */
export function digestStates(
  states: ReadonlyMap<string, ContactState>,
  options: SummaryOptions & { replies: ReadonlyMap<string, string> },
  also?: (s: ContactState) => void,
): StatesDigest {
  const { replies, ...summaryOptions } = options;
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
