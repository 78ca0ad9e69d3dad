import { describeIssues, genericMessage } from './problems.js';
import { jobSchema, type Job } from './schema.js';
import { withoutTokens } from './tokens.js';

export type ParseResult = { ok: true; job: Job } | { ok: false; problems: string[] };

/** Validates a parsed job file: the job with every default filled, or one sentence per problem. */
export function parseJob(raw: unknown): ParseResult {
  const { data, problems } = withoutTokens(raw);
  const result = jobSchema.safeParse(data, { error: genericMessage });
  if (result.success && problems.length === 0) return { ok: true, job: result.data };
  return { ok: false, problems: [...problems, ...(result.success ? [] : describeIssues(result.error.issues, jobSchema, data))] };
}
