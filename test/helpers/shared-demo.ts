/**
 * One `outreach demo` for the whole test run: the first test file that asks runs it, the others wait for
 * it and read the same run (its exit code, narration and state folder). It runs in this process (as the
 * in-process command line of helpers/in-process.ts) under umask 022, the usual one, so
 * test/cli/file-modes.test.ts can check the modes of what it wrote. The folder is the demo's as it left
 * it: a test that changes a demo state folder copies it first.
 */
import { access, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';
import type { CliResult } from './cli.js';
import { cli } from './in-process.js';
import { waitFor } from './wait.js';

export interface DemoRun extends CliResult {
  /** The demo's --state-dir, made by the demo (its parent folder too). */
  stateDir: string;
}

/** How long a test waits for the demo another file runs (a safety net against a hang: it takes some 20 s). */
export const DEMO_WAIT_MS = 180_000;

export async function sharedDemo(): Promise<DemoRun> {
  const runDir = inject('runDir');
  const result = path.join(runDir, 'demo-result.json');
  try {
    await mkdir(path.join(runDir, 'demo-running')); // whoever makes it first runs the demo
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    await waitFor(() => access(result).then(() => true, () => false), DEMO_WAIT_MS, 100);
    const kept = JSON.parse(await readFile(result, 'utf8')) as DemoRun | { error: string };
    if ('error' in kept) throw new Error(`the shared demo failed in another test file: ${kept.error}`);
    return kept;
  }
  const stateDir = path.join(runDir, 'demo', 'state');
  const umask = process.umask(0o022);
  let kept: DemoRun | { error: string };
  try {
    kept = { stateDir, ...(await cli(['demo', '--no-progress', '--state-dir', stateDir])) };
  } catch (err) {
    kept = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  } finally {
    process.umask(umask);
  }
  await writeFile(`${result}.part`, JSON.stringify(kept));
  await rename(`${result}.part`, result);
  if ('error' in kept) throw new Error(kept.error);
  return kept;
}
