import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { jobJsonSchema } from '../../src/job/index.js';

/** Regenerate with: OUTREACH_WRITE_SCHEMA=1 npx vitest run test/job/schema-file.test.ts */
const SCHEMA_FILE = fileURLToPath(new URL('../../docs/job.schema.json', import.meta.url));

describe('docs/job.schema.json', () => {
  it('is the JSON Schema generated from the zod job schema (up to date)', async () => {
    const expected = `${JSON.stringify(jobJsonSchema(), null, 2)}\n`;
    if (process.env.OUTREACH_WRITE_SCHEMA === '1') await writeFile(SCHEMA_FILE, expected);
    const actual = await readFile(SCHEMA_FILE, 'utf8').catch(() => '');
    expect(actual, 'docs/job.schema.json is stale: run OUTREACH_WRITE_SCHEMA=1 npx vitest run test/job/schema-file.test.ts').toBe(expected);
  });

  it('describes the job as written: strict objects, only the required fields required', () => {
    const schema = jobJsonSchema() as { required: string[]; additionalProperties: boolean; properties: Record<string, unknown> };
    expect(schema.required).toEqual(['name', 'company_id', 'channel_id']);
    // A list or an earlier job's contacts; a message or an experiment.
    expect((schema as { allOf?: unknown }).allOf).toEqual([
      { oneOf: [{ required: ['contacts'] }, { required: ['follow_up'] }] },
      { oneOf: [{ required: ['message'] }, { required: ['experiment'] }] },
    ]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties).toHaveProperty('rate');
  });
});
