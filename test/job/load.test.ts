import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JobError, loadJob } from '../../src/job/index.js';
import { tempDir, writeFiles } from './tmp.js';

const EXAMPLE = {
  name: 'black-friday-2026',
  contacts: '../samples/contacts.csv',
  company_id: 1,
  channel_id: 10,
  default_country: 'BR',
  columns: { phone: 'Phone', name: 'First name', last_inbound_at: 'last_reply' },
  message: {
    template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } },
    text: 'Oi {{name}}, seu cupom é {{coupon}}',
    prefer: 'text',
    media: { url: 'https://example.com/flyer.jpg', content_type: 'image', file_name: 'flyer.jpg' },
  },
  conversation: { topic: 'black friday', pipeline_id: 3, pipeline_stage_id: 12 },
  after_send: { tags: ['bf-2026'], custom_fields: { campaign: 'bf-2026' } },
  rate: { per_second: 10, concurrency: 4 },
  retry: { attempts: 3, backoff_ms: 2000 },
  window: { safety_margin_minutes: 60 },
  limits: { max_reject_ratio: 0.2, max_failure_ratio: 0.5 },
};

async function loadError(file: string): Promise<JobError> {
  const err = await loadJob(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(JobError);
  return err as JobError;
}

describe('loadJob', () => {
  it("loads the issue's example job with every default filled and contacts resolved against the job's folder", async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'jobs/bf.json': JSON.stringify(EXAMPLE, null, 2) });
    const { job, jobFile, baseDir } = await loadJob(path.join(dir, 'jobs/bf.json'));
    expect(jobFile).toBe(path.join(dir, 'jobs/bf.json'));
    expect(baseDir).toBe(path.join(dir, 'jobs'));
    expect(job.contacts).toEqual([path.join(dir, 'samples/contacts.csv')]);
    expect(job.columns).toEqual({
      phone: 'Phone',
      name: 'First name',
      lastname: 'lastname',
      last_inbound_at: 'last_reply',
    });
    expect(job.input).toEqual({ require_mobile: false });
    expect(job.message.prefer).toBe('text');
    expect(job.default_country).toBe('BR');
  });

  it('reads a job file that starts with a byte-order mark', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'bf.json': `\uFEFF${JSON.stringify(EXAMPLE)}` });
    await expect(loadJob(path.join(dir, 'bf.json'))).resolves.toMatchObject({ job: { name: 'black-friday-2026' } });
  });

  it('names the file, line and column of a JSON syntax error', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'bad.json');
    await writeFiles(dir, { 'bad.json': '{\n  "name": "a",\n  "company_id": 1,\n}\n' });
    const err = await loadError(file);
    expect(err.message).toBe(`${file}: line 4, column 1: a comma before "}"; remove the trailing comma`);
    expect(err.userError).toBe(true);
  });

  it.each([
    ['a missing comma', '{\n  "a": 1\n  "b": 2\n}', 'line 3, column 3: expected "," or "}" after a value, found "\\""; a comma may be missing'],
    ['single quotes', "{ 'a': 1 }", 'line 1, column 3: expected a field name in double quotes, found "\'"'],
    ['a string that never closes', '{ "a": "x }', 'line 1, column 8: a string opens here and never closes; add the closing "'],
    ['a file cut short', '{ "a": ', 'line 1, column 8: the file ends where a value was expected'],
  ])('points at %s', async (_what, text, expected) => {
    const dir = await tempDir();
    await writeFiles(dir, { 'bad.json': text });
    const err = await loadError(path.join(dir, 'bad.json'));
    expect(err.problems).toEqual([expected]);
  });

  it('names a missing job file and where it looked', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'nope.json');
    const err = await loadError(file);
    expect(err.message).toBe(`${file}: no such file (looked for ${file}); check the path, e.g. jobs/black-friday.json`);
  });

  it('refuses an empty job file', async () => {
    const dir = await tempDir();
    await writeFiles(dir, { 'empty.json': '  \n' });
    const err = await loadError(path.join(dir, 'empty.json'));
    expect(err.problems).toEqual(['the file is empty; a job is a JSON object, see jobs/black-friday.json']);
  });

  it('prefixes each validation problem with the job file, one per line', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'bf.json');
    await writeFiles(dir, { 'bf.json': JSON.stringify({ ...EXAMPLE, token: 'secret', rate: { per_second: 0 } }) });
    const err = await loadError(file);
    expect(err.message.split('\n')).toEqual([
      `${file}: token: a token never goes in a job file; set OUTREACH_TOKEN or pass --token-file`,
      `${file}: rate.per_second: must be a number above 0, e.g. 10`,
    ]);
  });
});
