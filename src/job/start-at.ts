import { z } from 'zod';
import { says } from './fields.js';

/** An ISO 8601 time that names its zone (an offset or Z): "2026-11-27T09:00:00-03:00". */
const WITH_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)$/i;

/** Why `text` is not a time with its zone, or undefined when it is one (`start_at`, `run --at`). */
export function startAtProblem(text: string): string | undefined {
  if (WITH_ZONE.test(text.trim()) && !Number.isNaN(Date.parse(text.trim()))) return undefined;
  return `${JSON.stringify(text)} is not a time with its zone; write it as ISO 8601 with an offset or Z, e.g. "2026-11-27T09:00:00-03:00"`;
}

export const startAt = z
  .string({ error: says('a time as ISO 8601 with its zone, e.g. "2026-11-27T09:00:00-03:00"') })
  .superRefine((value, ctx) => {
    const problem = startAtProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', input: value, message: problem });
  })
  .optional()
  .describe('Send nobody before this time (ISO 8601 with an offset or Z): a run started earlier defers every contact until then (`run --wait` waits)');
