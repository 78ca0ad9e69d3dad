/**
 * Starts one throwaway PostgreSQL cluster for the whole test run (tests get its URL with
 * `inject('pgUrl')` and a schema of their own). Without PostgreSQL on the machine the database
 * tests are skipped, and this says so in one line; in CI (`CI` set) they never skip: a missing
 * PostgreSQL fails the run.
 */
import type { TestProject } from 'vitest/node';
import { PG_MISSING, postgresBin, startCluster, type Cluster } from './helpers/pg-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared cluster's URL, or '' when PostgreSQL is not installed (outside CI). */
    pgUrl: string;
  }
}

let cluster: Cluster | undefined;

export async function setup(project: TestProject): Promise<void> {
  if (postgresBin() === undefined) {
    if (process.env.CI) throw new Error(`${PG_MISSING}: .ci/run installs it`);
    console.log(PG_MISSING);
    project.provide('pgUrl', '');
    return;
  }
  cluster = await startCluster();
  project.provide('pgUrl', cluster.url);
}

export async function teardown(): Promise<void> {
  await cluster?.destroy();
}
