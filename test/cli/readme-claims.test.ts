import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJob } from '../../src/job/index.js';
import { repoRoot } from '../helpers/cli.js';

let readme: string;
let dir: string;
beforeAll(async () => {
  readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
  dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-readme-jobs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The README's ```json blocks, each with its line. */
function jsonBlocks(text: string): Array<{ line: number; body: string }> {
  return [...text.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => ({ line: text.slice(0, m.index).split('\n').length, body: m[1]! }));
}

/** What a job needs besides the fields an example shows (an example may show only its part of a job). */
const BASE = { name: 'readme-example', contacts: 'contacts.csv', company_id: 1, channel_id: 10, message: { text: 'Oi {{name}}' } };

describe('the README says only what is true', () => {
  it('has every example job (or part of one) load through the job loader', async () => {
    const blocks = jsonBlocks(readme);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const { line, body } of blocks) {
      const trimmed = body.trim().replace(/,$/, ''); // a field shown as a line of a job keeps its comma
      const shown = JSON.parse(trimmed.startsWith('{') ? trimmed : `{${trimmed}}`) as Record<string, unknown>;
      const file = path.join(dir, `line-${line}.json`);
      // A follow-up takes its contacts from the earlier job, an experiment's arms are its message.
      const { contacts, message, ...rest } = BASE;
      const base = { ...rest, ...('follow_up' in shown ? {} : { contacts }), ...('experiment' in shown ? {} : { message }) };
      await writeFile(file, JSON.stringify({ ...base, ...shown }));
      await expect(loadJob(file), `README line ${line}`).resolves.toBeDefined();
    }
  });

  it('links to no file outside the repository, and to no file it lacks (nor do the docs/ pages)', async () => {
    const pages = ['README.md', ...(await readdir(path.join(repoRoot, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    for (const page of pages) {
      const text = await readFile(path.join(repoRoot, page), 'utf8');
      const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/i.test(l));
      for (const link of links) {
        const target = path.resolve(repoRoot, path.dirname(page), link);
        expect(path.relative(repoRoot, target).startsWith('..'), `${page} links to ${link}, outside the repository`).toBe(false);
        expect(existsSync(target), `${page} links to ${link}, which the repository lacks`).toBe(true);
      }
      expect(text, page).not.toMatch(/\.\.\/shared\/|\/work\/(?:shared|main|wt)\//);
    }
  });

  it('links only to headings it has', () => {
    // GitHub's anchors: the heading in lower case, without punctuation but hyphens, spaces as hyphens.
    const slugs = new Set([...readme.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-')));
    for (const [, anchor] of readme.matchAll(/\]\(#([^)]+)\)/g)) expect(slugs.has(anchor!), `README links to #${anchor}, which no heading has`).toBe(true);
  });
});
