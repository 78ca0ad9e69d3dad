import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadJob } from '../../src/job/index.js';

const JOBS = fileURLToPath(new URL('../../jobs/', import.meta.url));
const files = (await readdir(JOBS)).filter((f) => f.endsWith('.json')).sort();

describe('the example jobs in jobs/', () => {
  it('exist', () => {
    expect(files).toEqual(['black-friday.json', 'demo.json', 'first-campaign.json', 'latam-mixed.json', 'nightly-import.json', 'pool.json', 'ww-text-media.json']);
  });

  it.each(files)('%s is a valid job', async (file) => {
    const { job } = await loadJob(path.join(JOBS, file));
    expect(job.name).toMatch(/^[a-z0-9-]+$/);
  });
});
