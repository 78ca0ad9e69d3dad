import { MAX_JOB_DEPTH, ownData } from './own-data.js';
import { prefillSections } from './prefill.js';
import { describeIssues, genericMessage, reservedKeyProblem, tooDeepProblem } from './problems.js';
import { jobSchema, type Job } from './schema.js';
import { withoutTokens } from './tokens.js';

export type ParseResult = { ok: true; job: Job } | { ok: false; problems: string[] };

/**
 * Validates a parsed job file: the job with every default filled, or one sentence per problem.
 * The schema reads a copy made of objects without a prototype (`ownData`): a `__proto__`,
 * `constructor` or `prototype` key at any depth is refused as an unknown field, and no setting
 * can come from a prototype, the file's or `Object.prototype`'s (not even through a section the
 * schema would fill with a `{}` of its own: `prefillSections`).
 */
export function parseJob(raw: unknown): ParseResult {
  const own = ownData(raw);
  const tokens = withoutTokens(own.data);
  // withoutTokens builds ordinary objects: copy once more so that zod reads own fields only.
  const data = ownData(tokens.data).data;
  prefillSections(jobSchema, data);
  const problems = [
    ...own.reserved.map(({ path, key }) => reservedKeyProblem(jobSchema, path, key)),
    ...own.tooDeep.map((path) => tooDeepProblem(path, MAX_JOB_DEPTH)),
    ...tokens.problems,
  ];
  const result = jobSchema.safeParse(data, { error: genericMessage });
  if (result.success && problems.length === 0) return { ok: true, job: result.data };
  return { ok: false, problems: [...problems, ...(result.success ? [] : describeIssues(result.error.issues, jobSchema, data))] };
}
