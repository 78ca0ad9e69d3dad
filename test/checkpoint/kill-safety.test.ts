import { execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { openJournal, readJournal, replay } from '../../src/checkpoint/file/index.js';
import { repoRoot } from '../helpers/cli.js';
import { attempt, phoneOf, tempDir } from './helpers.js';

/**
 * A child process appends with 64 concurrent writers and reports each acknowledged append on
 * stdout; the test kills it with SIGKILL mid-stream. Every append acknowledged before the kill must
 * be in the journal, and the journal must stay usable.
 */
describe('journal killed mid-run', () => {
  let compiled: string;

  beforeAll(async () => {
    compiled = await tempDir();
    const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
    await promisify(execFile)(process.execPath, [
      tsc,
      '--outDir', compiled,
      '--rootDir', path.join(repoRoot, 'src'),
      '--module', 'nodenext',
      '--moduleResolution', 'nodenext',
      '--target', 'es2022',
      '--types', 'node',
      '--skipLibCheck',
      path.join(repoRoot, 'src/checkpoint/file/journal.ts'),
    ]);
  }, 60_000);

  it('keeps every acknowledged append when the process is killed', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'checkpoint.jsonl');
    const script = path.join(dir, 'writer.mjs');
    await writeFile(
      script,
      `import { openJournal } from ${JSON.stringify(pathToFileURL(path.join(compiled, 'checkpoint', 'file', 'journal.js')).href)};
const journal = await openJournal(${JSON.stringify(file)});
let next = 0;
async function worker() {
  for (;;) {
    const phone = '+5511' + String(next++).padStart(9, '0');
    await journal.append({ t: 'attempt', phone, via: 'start', action: 'template', at: new Date().toISOString() });
    process.stdout.write(phone + '\\n');
  }
}
for (let i = 0; i < 64; i++) void worker();
`,
    );

    const acked = await new Promise<string[]>((resolve, reject) => {
      const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
      const seen: string[] = [];
      let buffer = '';
      child.stdout.on('data', (d: Buffer) => {
        buffer += d.toString();
        const parts = buffer.split('\n');
        buffer = parts.pop() ?? '';
        seen.push(...parts);
        if (seen.length >= 2000) child.kill('SIGKILL');
      });
      child.on('error', reject);
      child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(seen) : reject(new Error(`writer exited ${_code}`))));
    });

    const read = await readJournal(file);
    const inFile = new Set(read.events.map((e) => e.phone));
    expect(acked.length).toBeGreaterThanOrEqual(2000);
    expect(acked.filter((p) => !inFile.has(p))).toEqual([]);
    expect(read.tornLines).toBeLessThanOrEqual(1);

    // The next run appends after whatever the kill left.
    const journal = await openJournal(file);
    await journal.append(attempt(phoneOf(7)));
    await journal.close();
    const after = await readJournal(file);
    expect(replay(after.events).get(phoneOf(7))?.status).toBe('in_doubt');
    expect(after.events.length).toBe(read.events.length + 1);
  });
});
