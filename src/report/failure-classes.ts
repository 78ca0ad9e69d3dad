import { count } from '../locale/people.js';
import type { ContactState } from '../checkpoint/types.js';

/** Failed and in-doubt contacts of one class of the provider's refusals (`other`: no code, or one the run does not act on). */
export interface FailureClass {
  class: string;
  count: number;
  /** The error of one of them, as the report has it. */
  example: string;
}

/** The class of a failed or in-doubt contact: the one recorded with its refusal, else `other`. */
export function failureClassOf(s: ContactState): string | undefined {
  if (s.status === 'failed') return s.errorClass ?? 'other';
  if (s.status === 'in_doubt') return 'other';
  return undefined;
}

/** Failed and in-doubt contacts grouped by class: the count and one example message each, the largest first. Pure. */
export function failuresByClass(states: Iterable<ContactState>): FailureClass[] {
  const counter = failureClassCounter();
  for (const s of states) counter.add(s);
  return counter.result();
}

/** What `failuresByClass` counts, one state at a time. */
export function failureClassCounter(): { add(s: ContactState, n?: number): void; result(): FailureClass[] } {
  const groups = new Map<string, FailureClass>();
  return {
    add(s, n = 1) {
      const cls = failureClassOf(s);
      if (cls === undefined || (s.status !== 'failed' && s.status !== 'in_doubt')) return;
      const group = groups.get(cls);
      if (group) group.count += n;
      else groups.set(cls, { class: cls, count: n, example: s.error });
    },
    result: () => [...groups.values()].sort((a, b) => b.count - a.count || a.class.localeCompare(b.class)),
  };
}

/**
 * The summary's lines for the classes: `  undeliverable  3  e.g. <message>`, under a heading; none
 * when no failure carried a provider code (then "top errors" says it all).
 */
export function formatFailureClasses(classes: readonly FailureClass[], locale?: string): string[] {
  if (classes.every((c) => c.class === 'other')) return [];
  const n = (x: number) => count({ locale }, x);
  const name = Math.max(...classes.map((c) => c.class.length));
  const width = Math.max(...classes.map((c) => n(c.count).length));
  return [
    'failures by class',
    ...classes.map((c) => `  ${c.class.padEnd(name)}  ${n(c.count).padStart(width)}  e.g. ${c.example}`),
  ];
}
