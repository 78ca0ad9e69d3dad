import type { Gate } from './input.js';

const HOUR_MS = 3_600_000;

/**
 * `experiment`: a contact outside the test waits for the decision (`deferred`, reason `experiment`)
 * until the store has a winner; it may go from the decision time on (the test's first send plus
 * `decide_after_hours`, or that many hours from now while the test has sent nothing).
 */
export const experimentHold: Gate = ({ job, context }) => {
  const held = context.experiment;
  if (held === undefined || held.test || held.winner !== undefined) return undefined;
  const notBefore = held.decideAt ?? context.now + (job.experiment?.decide_after_hours ?? 0) * HOUR_MS;
  return { kind: 'defer', reason: 'experiment', notBefore: Math.max(notBefore, context.now) };
};
