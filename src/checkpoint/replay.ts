import { applyEvent } from './apply-event.js';
import type { CheckpointEvent, ContactState } from './types.js';

/** Folds events into one state per phone (pure: a new map each call). */
export function replay(events: Iterable<CheckpointEvent>): Map<string, ContactState> {
  const state = new Map<string, ContactState>();
  for (const event of events) applyEvent(state, event);
  return state;
}
