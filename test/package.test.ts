import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let dir: string;

/** `npm pack` of the built package, installed in an empty folder as another project would. */
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-pack-'));
  const { stdout } = await run(npm, ['pack', '--ignore-scripts', '--pack-destination', dir, '--json'], { cwd: repoRoot });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
  if (!packed) throw new Error(`npm pack printed no file: ${stdout}`);
  const { filename } = packed;
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }));
  await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(dir, filename)], { cwd: dir });
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the package, installed in another project', () => {
  it("gives planJob, runJob, jobStatus, jobReport, loadJob, createApiClient and startSimulator from import('outreach')", async () => {
    const script = `const m = await import('outreach'); console.log(JSON.stringify(Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v]))));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir });
    const exported = JSON.parse(stdout) as Record<string, string>;
    for (const name of ['planJob', 'runJob', 'jobStatus', 'jobReport', 'loadJob', 'createApiClient', 'startSimulator', 'prepare', 'createFileStore']) {
      expect(exported[name], name).toBe('function');
    }
  });

  it('carries their types: a TypeScript consumer type-checks against them', async () => {
    await writeFile(
      path.join(dir, 'consumer.ts'),
      `import { createApiClient, createFileStore, jobReport, jobStatus, loadJob, planJob, prepare, runJob, startSimulator, type RunOutcome } from 'outreach';
const sim = await startSimulator({ port: 0 });
const api = createApiClient({ baseUrl: sim.url, token: sim.token });
const prepared = await prepare('job.json', { api });
const store = createFileStore('.state');
const plan = await planJob(prepared, { store });
const outcome: RunOutcome = await runJob(prepared, { store, api, command: 'run', mode: { retryFailed: false, retryInDoubt: false }, owner: { pid: 1 } });
const status = await jobStatus('job.json', { store });
const report = await jobReport('job.json', { store, format: 'csv' });
const loaded = await loadJob('job.json');
const n: number = plan.contacts + outcome.notDone + status.notDone + report.contacts + loaded.job.rate.per_second;
// @ts-expect-error a run outcome has no such field
outcome.nonsense;
export { n };
`,
    );
    const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
    const args = [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', path.join(repoRoot, 'node_modules/@types'), '--skipLibCheck', 'consumer.ts'];
    await expect(run(process.execPath, args, { cwd: dir })).resolves.toBeDefined();
  }, 60_000);
});
