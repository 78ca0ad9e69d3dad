import type { Action } from './types.js';

/** The report's `action` column: template, template+media, template (media left out), text, text+media, skip:<reason>, reject:<reason>. */
export function actionLabel(action: Action): string {
  switch (action.kind) {
    case 'template':
      return action.media ? 'template+media' : action.mediaLeftOut ? 'template (media left out)' : 'template';
    case 'text':
      return action.media ? 'text+media' : 'text';
    case 'skip':
      return `skip:${action.reason}`;
    case 'defer':
      return `defer:${action.reason}`;
    case 'reject':
      return `reject:${action.reason}`;
    default: {
      const never: never = action;
      return never;
    }
  }
}

/** Counts of actions by label, for the plan's summary. */
export type PlanCounts = Record<string, number>;

/** Adds one action to the counts (contacts stream by; no list is kept). */
export function countAction(counts: PlanCounts, action: Action): PlanCounts {
  const label = actionLabel(action);
  counts[label] = (counts[label] ?? 0) + 1;
  return counts;
}

/** Counts of a whole list of actions, labels in alphabetical order. */
export function countActions(actions: Iterable<Action>): PlanCounts {
  const counts: PlanCounts = {};
  for (const action of actions) countAction(counts, action);
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)));
}
