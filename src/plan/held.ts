import type { Action } from './types.js';

/**
 * A contact the job already holds a state for (deferred earlier: waiting for an experiment's winner,
 * for its window, for the messaging limit) whose message can no longer be filled is skipped with
 * the reject's reason instead of rejected. It is then counted once, in its state, and never left
 * deferred to a time gone by; a row the job never held stays a reject (rejects.csv). Pure.
 */
export function heldReject(action: Action, held: boolean): Action {
  return held && action.kind === 'reject' ? { kind: 'skip', reason: action.reason } : action;
}
