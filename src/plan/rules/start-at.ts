import type { Gate } from './input.js';

/** `start_at`: before it, every contact waits until then (a run started early sends nobody). */
export const notYet: Gate = ({ job, context }) => {
  if (job.start_at === undefined) return undefined;
  const startsAt = Date.parse(job.start_at);
  return context.now < startsAt ? { kind: 'defer', reason: 'start_at', notBefore: startsAt } : undefined;
};
