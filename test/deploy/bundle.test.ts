import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStore } from '../../src/checkpoint/backends.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cliPath, repoRoot } from '../helpers/cli.js';

let c: Campaign;
let hooks: string;

/** A job with one contact sent, and a preload that prints each file the process loads (ESM and CommonJS). */
beforeAll(async () => {
  c = await campaign({ rows: 2 });
  const job = await createFileStore(c.stateDir).openJob('cli-test', { pid: process.pid, startedAt: '2025-01-15T17:20:00.000Z', command: 'run' });
  await job.record({ t: 'sent', phone: c.phones[0] ?? '', via: 'start', action: 'template', conversation_id: 'c1', message_id: 'm1', at: '2025-01-15T17:21:00.000Z' });
  await job.close();
  const loader = path.join(c.dir, 'loader.mjs');
  await writeFile(loader, "export async function load(url, context, next) { if (url.startsWith('file:')) process.stderr.write(`LOADED ${url}\\n`); return next(url, context); }\n");
  hooks = path.join(c.dir, 'hooks.mjs');
  await writeFile(hooks, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(loader).href)});\n`);
});

afterAll(async () => {
  await c.cleanup();
});

/** `node ENTRY args…` with the loading preload; its exit code, output, and the files it loaded under `root`. */
function node(entry: string, args: string[]): Promise<{ code: number | null; stdout: string; loaded: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', hooks, entry, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const loaded = stderr.split('\n').flatMap((line) => (line.startsWith('LOADED file://') ? [decodeURIComponent(line.slice('LOADED file://'.length))] : []));
      resolve({ code, stdout, loaded });
    });
  });
}

const under = (files: string[], dir: string) => files.filter((f) => f.startsWith(`${path.join(repoRoot, dir)}/`)).map((f) => path.relative(repoRoot, f));

describe('the built command line runs bundled (npm run build bundles it into dist/bundle/)', () => {
  it('runs status from the bundle: of the modules in dist/src only its entry is loaded, and node-postgres is not (a file store)', async () => {
    const { code, stdout, loaded } = await node(cliPath, ['status', c.jobFile, '--state-dir', c.stateDir, '--json']);
    expect(code).toBe(1);
    expect((JSON.parse(stdout) as { byStatus: { sent: number } }).byStatus.sent).toBe(1);
    expect(under(loaded, 'dist/src')).toEqual(['dist/src/cli/main.js']);
    expect(under(loaded, 'dist/bundle')).toContain('dist/bundle/run-cli.mjs');
    expect(under(loaded, 'node_modules').filter((f) => f.startsWith('node_modules/pg/'))).toEqual([]);
  });

  it('runs the modules of dist/src when the bundle is not there (a build whose bundler could not load)', async () => {
    // A copy of the built modules without a bundle beside them, inside the checkout so that node_modules resolves.
    const dist = await mkdtemp(path.join(repoRoot, 'dist', '.unbundled-'));
    try {
      await cp(path.join(repoRoot, 'dist/src'), path.join(dist, 'src'), { recursive: true });
      const { code, stdout, loaded } = await node(path.join(dist, 'src/cli/main.js'), ['status', c.jobFile, '--state-dir', c.stateDir, '--json']);
      expect(code).toBe(1);
      expect((JSON.parse(stdout) as { byStatus: { sent: number } }).byStatus.sent).toBe(1);
      expect(loaded.filter((f) => f.startsWith(`${dist}/`)).length).toBeGreaterThan(20);
      expect(under(loaded, 'dist/bundle')).toEqual([]);
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });

  it('keeps what a command loads only when it needs it out of the start-up: every command registered (--version), node-postgres is not loaded', async () => {
    const { code, stdout, loaded } = await node(cliPath, ['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('0.1.0');
    expect(under(loaded, 'dist/src')).toEqual(['dist/src/cli/main.js']);
    expect(under(loaded, 'dist/bundle').length).toBeGreaterThan(20);
    expect(under(loaded, 'node_modules').filter((f) => f.startsWith('node_modules/pg/'))).toEqual([]);
  });

  it('puts a worker thread\'s module beside the chunk that starts it (the list read ahead while a run folds its journal)', async () => {
    const chunks = path.join(repoRoot, 'dist/bundle/chunks');
    const started: string[] = [];
    for (const name of await readdir(chunks)) {
      const text = await readFile(path.join(chunks, name), 'utf8');
      for (const m of text.matchAll(/new URL\(`\.\/([\w.-]+-worker\.js)`,\s*import\.meta\.url\)/g)) started.push(m[1] ?? '');
    }
    expect(started).toContain('csv-read-worker.js');
    for (const worker of started) expect(existsSync(path.join(chunks, worker)), worker).toBe(true);
  });
});
