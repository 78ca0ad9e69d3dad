import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJob } from '../../src/job/index.js';
import { repoRoot } from '../helpers/cli.js';

describe("docs/time-and-locale.md's example job", () => {
  it('is a valid job whose start_at is each contact\'s own 09:00 and whose default zone fills its send window\'s', async () => {
    const page = await readFile(path.join(repoRoot, 'docs', 'time-and-locale.md'), 'utf8');
    const [block] = [...page.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    const parsed = parseJob(JSON.parse(block ?? '{}'));
    expect(parsed.ok, parsed.ok ? '' : parsed.problems.join('; ')).toBe(true);
    if (parsed.ok) {
      expect(parsed.job.start_at).toBe('2026-11-28T09:00:00');
      expect(parsed.job.send_window?.default_timezone).toBe('America/Sao_Paulo');
    }
  });
});
