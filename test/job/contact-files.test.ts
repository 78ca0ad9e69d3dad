import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobError, loadJob, resolveContactFiles } from '../../src/job/index.js';
import { tempDir, writeFiles } from './tmp.js';

async function jobWith(contacts: string | string[], files: Record<string, string>) {
  const dir = await tempDir();
  await writeFiles(dir, {
    ...files,
    'jobs/j.json': JSON.stringify({ name: 'j', contacts, company_id: 1, channel_id: 10, message: { text: 'hi' } }),
  });
  return { dir, loaded: await loadJob(path.join(dir, 'jobs/j.json')) };
}

describe('resolveContactFiles', () => {
  it("expands a glob relative to the job file's folder into every match, in name order", async () => {
    const { dir, loaded } = await jobWith('../imports/leads-*.csv', {
      'imports/leads-2026-03.csv': 'x',
      'imports/leads-2026-01.csv': 'x',
      'imports/leads-2026-02.csv': 'x',
      'imports/other.csv': 'x',
    });
    expect(await resolveContactFiles(loaded)).toEqual([
      path.join(dir, 'imports/leads-2026-01.csv'),
      path.join(dir, 'imports/leads-2026-02.csv'),
      path.join(dir, 'imports/leads-2026-03.csv'),
    ]);
  });

  it("keeps the job's order across entries and lists a file named twice once", async () => {
    const { dir, loaded } = await jobWith(['../b.csv', '../*.csv'], { 'a.csv': 'x', 'b.csv': 'x' });
    expect(await resolveContactFiles(loaded)).toEqual([path.join(dir, 'b.csv'), path.join(dir, 'a.csv')]);
  });

  it('takes an existing file whose name has glob characters as that file', async () => {
    const { dir, loaded } = await jobWith('../list (1).csv', { 'list (1).csv': 'x' });
    expect(await resolveContactFiles(loaded)).toEqual([path.join(dir, 'list (1).csv')]);
  });

  it('names every plain path that does not exist and every glob that matches nothing', async () => {
    const { dir, loaded } = await jobWith(['../missing.csv', '../imports/*.csv', '../folder'], { 'folder/a.csv': 'x' });
    const err = await resolveContactFiles(loaded).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobError);
    expect((err as JobError).problems).toEqual([
      `contacts: "../missing.csv" does not exist (looked for ${path.join(dir, 'missing.csv')}); paths are relative to the job file's folder`,
      `contacts: the glob "../imports/*.csv" matches no file (in ${path.join(dir, 'jobs')}); check the pattern`,
      'contacts: "../folder" is a folder; name a file, or a glob such as "../folder/*.csv"',
    ]);
  });
});
