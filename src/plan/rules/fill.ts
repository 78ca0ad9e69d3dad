import { render } from '../render.js';
import type { PlanJob, RejectAction } from './input.js';

/** One piece of text to fill for a contact, and where it comes from in the job (for the reject's detail). */
export interface Part {
  label: string;
  source: string;
  /** The template position this part fills. */
  position?: string;
}

export type Filled = { ok: true; values: string[] } | { ok: false; reject: RejectAction };

/** Fills every part from the contact's columns; the first missing value rejects the contact. */
export function fill(parts: Part[], vars: Record<string, string>): Filled {
  const values: string[] = [];
  for (const part of parts) {
    const r = render(part.source, vars);
    if (!r.ok) {
      const why = Object.hasOwn(vars, r.missing) ? `this contact's "${r.missing}" is empty` : `this contact has no "${r.missing}" column`;
      return {
        ok: false,
        reject: { kind: 'reject', reason: `missing_variable:${r.missing}`, detail: `${part.label} uses {{${r.missing}}} but ${why}` },
      };
    }
    values.push(r.text);
  }
  return { ok: true, values };
}

/** Template variables in position order. */
export function variableParts(variables: Record<string, string>): Part[] {
  return Object.entries(variables)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([position, source]) => ({ label: `message.template.variables["${position}"]`, source, position }));
}

/** The after-send custom fields: filled with the message, so the after-send step can never write a blank. */
export function customFieldParts(job: Pick<PlanJob, 'after_send'>): Part[] {
  return Object.entries(job.after_send.custom_fields).map(([key, source]) => ({
    label: `after_send.custom_fields${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`,
    source,
  }));
}
