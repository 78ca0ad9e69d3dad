import { describeWarnings, type Contact, type Reject } from '../contacts/index.js';
import { actionLabel, decide, type Action } from '../plan/index.js';
import { audience } from './audience.js';
import type { PlanLookups } from './plan-context.js';
import { planContextFor } from './plan-context.js';
import type { Prepared } from './prepare.js';

/** What a full read of the contact list says, before anything is sent. */
export interface PlanPass {
  rows: number;
  contacts: number;
  rejects: Reject[];
  rejectedByReason: Record<string, number>;
  /** Planned action label → contacts (template, text, text+media, template+media, skip:<reason>, defer:<reason>). */
  byAction: Record<string, number>;
  examples: Array<{ phone: string; line: number; action: string; message: string }>;
  /** The loader's warnings (rows that load, with something the user should hear about), one sentence per kind with examples. */
  loaderWarnings: string[];
}

const EXAMPLES = 3;

/** The planner's choice for each contact of a prepared job at `now`, with what the store knows. */
export function plannerFor(prepared: Prepared, lookups: PlanLookups, now: number): (contact: Contact) => Action {
  return (contact) => decide(contact, prepared.channel, prepared.job, planContextFor(lookups, contact, now));
}

/**
 * Reads the whole list once: loader rejects, the planner's rejects, and each contact's planned
 * action. Used by `plan` for its summary (`run` counts the same in its one read of the list: send-pass.ts).
 */
export async function planPass(prepared: Prepared, planner: (contact: Contact) => Action): Promise<PlanPass> {
  const pass: PlanPass = { rows: 0, contacts: 0, rejects: [], rejectedByReason: {}, byAction: {}, examples: [], loaderWarnings: [] };
  const { items, counts } = audience(prepared, { decide: planner });
  for await (const item of items) {
    if (item.kind === 'reject') {
      pass.rejects.push(item.reject);
      pass.rejectedByReason[item.reject.reason] = (pass.rejectedByReason[item.reject.reason] ?? 0) + 1;
    } else if (item.kind === 'contact' && item.action) {
      const { contact, action } = item;
      pass.contacts += 1;
      const label = actionLabel(action);
      pass.byAction[label] = (pass.byAction[label] ?? 0) + 1;
      const message = rendered(action);
      if (pass.examples.length < EXAMPLES && message) pass.examples.push({ phone: contact.phone, line: contact.line, action: label, message });
    }
  }
  pass.rows = counts.rows;
  pass.loaderWarnings = describeWarnings(counts.warningsByKind);
  return pass;
}

/** Too many rejects usually means a wrong column mapping or country: the sentence that stops the job, if so. */
export function rejectRatioProblem(maxRatio: number, pass: Pick<PlanPass, 'rows' | 'rejects' | 'rejectedByReason'>, rejectsFile: string): string | undefined {
  if (pass.rows === 0) return undefined;
  const ratio = pass.rejects.length / pass.rows;
  if (ratio <= maxRatio) return undefined;
  const top = Object.entries(pass.rejectedByReason)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ');
  return (
    `${pass.rejects.length} of ${pass.rows} rows rejected (${percent(ratio)}), more than limits.max_reject_ratio ${maxRatio} (${top}); ` +
    `check columns and default_country in the job, see ${rejectsFile}`
  );
}

export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

function rendered(action: Action): string {
  switch (action.kind) {
    case 'template': {
      const vars = Object.entries(action.template.variables)
        .map(([k, v]) => `{{${k}}}=${JSON.stringify(v)}`)
        .join(', ');
      return `template ${action.template.name} (${action.template.language}) ${vars}${action.media ? ` + media ${action.media.media.url}` : ''}`;
    }
    case 'text':
      return `${JSON.stringify(action.text)}${action.media ? ` + media ${action.media.media.url}` : ''}`;
    case 'skip':
    case 'defer':
    case 'reject':
      return '';
    default: {
      const never: never = action;
      return never;
    }
  }
}
