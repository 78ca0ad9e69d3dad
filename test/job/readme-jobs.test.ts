import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJob } from '../../src/job/index.js';
import { repoRoot } from '../helpers/cli.js';

/** The example jobs of a follow-up and of an experiment in docs/follow-ups-and-experiments.md (its ```json blocks naming either). */
async function readmeJobs(): Promise<unknown[]> {
  const guide = await readFile(path.join(repoRoot, 'docs', 'follow-ups-and-experiments.md'), 'utf8');
  return [...guide.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .filter((block) => /"(follow_up|experiment)"/.test(block))
    .map((block) => JSON.parse(block) as unknown);
}

interface SchemaShape {
  properties: Record<string, { properties?: Record<string, unknown>; additionalProperties?: unknown }>;
  allOf: Array<{ oneOf: Array<{ required: string[] }> }>;
}

describe("the guide's follow-up and experiment jobs", () => {
  it('are both there, and each is a valid job and fits docs/job.schema.json', async () => {
    const jobs = await readmeJobs();
    expect(jobs.map((j) => Object.keys(j as object).find((k) => k === 'follow_up' || k === 'experiment'))).toEqual(['follow_up', 'experiment']);
    const schema = JSON.parse(await readFile(path.join(repoRoot, 'docs/job.schema.json'), 'utf8')) as SchemaShape;
    for (const job of jobs) {
      const parsed = parseJob(job);
      expect(parsed.ok, parsed.ok ? '' : parsed.problems.join('; ')).toBe(true);
      const fields = job as Record<string, Record<string, unknown>>;
      // Every field is one the schema knows, down to the follow-up's and the experiment's own.
      for (const key of Object.keys(fields)) expect(schema.properties, key).toHaveProperty(key);
      for (const key of ['follow_up', 'experiment'] as const) {
        for (const inner of Object.keys(fields[key] ?? {})) expect(schema.properties[key]?.properties, `${key}.${inner}`).toHaveProperty(inner);
      }
      // Exactly one of each pair the schema asks for (a list or a follow-up; a message or an experiment).
      for (const { oneOf } of schema.allOf) expect(oneOf.filter((o) => o.required.every((r) => r in fields))).toHaveLength(1);
    }
  });
});
