import type { z } from 'zod';
import { formatPath } from './path.js';
import { fieldsAt } from './shape.js';
import { closest } from './suggest.js';

/** The loose view of an issue that the generic wording reads. */
interface LooseIssue {
  code?: string;
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  values?: unknown[];
  pattern?: string;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a text in double quotes',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object { … }',
  array: 'a list [ … ]',
};

/**
 * The wording of issues whose schema gave no message of its own: passed to `safeParse` so zod's
 * defaults ("Invalid input: expected string, received number") never reach people.
 */
export function genericMessage(raw: unknown): string | undefined {
  const iss = raw as LooseIssue;
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return 'is missing';
      return `must be ${TYPE_WORDS[iss.expected ?? ''] ?? iss.expected}`;
    case 'too_small':
      if (iss.origin === 'string') return 'must not be empty';
      if (iss.origin === 'array') return `must list at least ${iss.minimum} item${iss.minimum === 1 ? '' : 's'}`;
      return `must be ${iss.inclusive ? 'at least' : 'above'} ${iss.minimum}`;
    case 'too_big':
      if (iss.origin === 'string') return `must be at most ${iss.maximum} characters`;
      if (iss.origin === 'array') return `must list at most ${iss.maximum} items`;
      return `must be ${iss.inclusive ? 'at most' : 'below'} ${iss.maximum}`;
    case 'invalid_value':
      return `must be one of ${(iss.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `${JSON.stringify(iss.input)} does not have the expected form (${iss.pattern ?? 'see docs/job.schema.json'})`;
    default:
      return undefined;
  }
}

/** One sentence per problem, each naming the JSON path and the fix. `data` is the input that was validated. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], schema: z.core.$ZodType, data: unknown): string[] {
  const lines: Array<{ text: string; missingPath?: string }> = [];
  const suggested = new Set<string>();
  for (const issue of issues) {
    const where = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      const known = fieldsAt(schema, issue.path);
      const here = (valueAt(data, issue.path) ?? {}) as Record<string, unknown>;
      const present = Object.keys(here).filter((k) => here[k] !== undefined);
      const candidates = known.filter((k) => !present.includes(k));
      for (const key of issue.keys) {
        const guess = closest(key, candidates);
        if (guess) suggested.add(formatPath([...issue.path, guess]));
        const fix = guess
          ? `did you mean "${guess}"?`
          : `remove it (the fields here are ${known.map((k) => `"${k}"`).join(', ')})`;
        lines.push({ text: `${where ? `${where}: ` : ''}unknown field "${key}"; ${fix}` });
      }
      continue;
    }
    if (issue.code === 'invalid_key') {
      const recordPath = formatPath(issue.path.slice(0, -1));
      lines.push({ text: `${recordPath}: ${issue.issues[0]?.message ?? `key ${JSON.stringify(issue.path.at(-1))} is not allowed`}` });
      continue;
    }
    const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_union') && valueAt(data, issue.path) === undefined;
    lines.push({
      text: where ? `${where}: ${issue.message}` : `the job ${issue.message}`,
      ...(missing ? { missingPath: where } : {}),
    });
  }
  // "unknown field chanel_id; did you mean channel_id?" already says that channel_id is missing.
  return lines.filter((l) => !(l.missingPath && suggested.has(l.missingPath))).map((l) => l.text);
}

/**
 * A key that reaches a prototype (`__proto__`, `constructor`, `prototype`), worded as the schema's
 * own unknown fields are: the path, the key, and the fields allowed there.
 */
export function reservedKeyProblem(schema: z.core.$ZodType, path: readonly PropertyKey[], key: string): string {
  const where = formatPath(path);
  const known = fieldsAt(schema, path);
  const fix =
    known.length > 0
      ? `remove it (the fields here are ${known.map((k) => `"${k}"`).join(', ')})`
      : 'remove it or rename it ("__proto__", "constructor" and "prototype" are never field names)';
  return `${where ? `${where}: ` : ''}unknown field "${key}"; ${fix}`;
}

/** A value nested deeper than any job field, named by its path. */
export function tooDeepProblem(path: readonly PropertyKey[], maxDepth: number): string {
  return `${formatPath(path)}: nests objects and lists more than ${maxDepth} levels deep, which no job field does; see jobs/black-friday.json`;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
