/**
 * A temporary folder for the whole test run (tests get it with `inject('runDir')`), where the files of
 * the run share what one of them made for all (test/helpers/shared-demo.ts); removed at the end.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's own temporary folder. */
    runDir: string;
  }
}

let dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dir = await mkdtemp(path.join(tmpdir(), 'outreach-test-run-'));
  project.provide('runDir', dir);
}

export async function teardown(): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}
