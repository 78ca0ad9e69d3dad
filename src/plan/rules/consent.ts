import type { Gate } from './input.js';

/** With `require_opt_in`, only a contact whose consent cell is a clear yes goes. */
export const consent: Gate = ({ job, context }) => (job.require_opt_in && context.optedIn !== true ? { kind: 'skip', reason: 'no_opt_in' } : undefined);
