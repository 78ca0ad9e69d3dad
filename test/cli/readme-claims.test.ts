import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJob } from '../../src/job/index.js';
import { docPages } from '../helpers/doc-pages.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-readme-jobs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A page's ```json blocks, each with its line. */
function jsonBlocks(text: string): Array<{ line: number; body: string }> {
  return [...text.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => ({ line: text.slice(0, m.index).split('\n').length, body: m[1]! }));
}

/** What a job needs besides the fields an example shows (an example may show only its part of a job). */
const BASE = { name: 'readme-example', contacts: 'contacts.csv', company_id: 1, channel_id: 10, message: { text: 'Oi {{name}}' } };

describe('the README and the guides say only what is true', () => {
  it('have every example job (or part of one) load through the job loader', async () => {
    const blocks = docPages().flatMap((page) => jsonBlocks(page.text).map((b) => ({ ...b, page: page.name })));
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    for (const { page, line, body } of blocks) {
      const trimmed = body.trim().replace(/,$/, ''); // a field shown as a line of a job keeps its comma
      const shown = JSON.parse(trimmed.startsWith('{') ? trimmed : `{${trimmed}}`) as Record<string, unknown>;
      const file = path.join(dir, `${path.basename(page, '.md')}-${line}.json`);
      // A follow-up takes its contacts from the earlier job, an experiment's arms are its message.
      const { contacts, message, ...rest } = BASE;
      const base = { ...rest, ...('follow_up' in shown ? {} : { contacts }), ...('experiment' in shown ? {} : { message }) };
      await writeFile(file, JSON.stringify({ ...base, ...shown }));
      await expect(loadJob(file), `${page} line ${line}`).resolves.toBeDefined();
    }
  });
});
