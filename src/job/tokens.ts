import { formatPath } from './path.js';

/** Maps whose keys are the user's own (a custom field may well be called "token"). */
const FREE_FORM = new Set(['custom_fields', 'variables']);
const TOKEN_KEY = /^(?:.*[_-])?token$/i;

/**
 * Takes every token-like field out of a parsed job file, with one problem for each: a token never
 * goes in a job file (job files get copied, committed and attached to tickets).
 */
export function withoutTokens(data: unknown, path: readonly string[] = []): { data: unknown; problems: string[] } {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { data, problems: [] };
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const here = [...path, key];
    if (TOKEN_KEY.test(key)) {
      problems.push(`${formatPath(here)}: a token never goes in a job file; set OUTREACH_TOKEN or pass --token-file`);
      continue;
    }
    if (FREE_FORM.has(key)) {
      out[key] = value;
      continue;
    }
    const inner = withoutTokens(value, here);
    out[key] = inner.data;
    problems.push(...inner.problems);
  }
  return { data: out, problems };
}
