import type { JobRunner, StateStore } from '../../checkpoint/index.js';
import { loadJob } from '../../job/index.js';

/** What `outreach stop` did. */
export type StopOutcome =
  /** The owner runs on this host: it was sent the stop (SIGTERM), and stops as after one. */
  | { kind: 'signalled'; runner: JobRunner }
  /** The owner runs on another host: a signal cannot reach it from here. */
  | { kind: 'other_host'; runner: JobRunner }
  /** The store names an owner on this host, but no process of ours answers to its pid any more. */
  | { kind: 'gone'; runner: JobRunner }
  /** Nothing holds the job. */
  | { kind: 'not_running' };

export interface StopJobOptions {
  store: StateStore;
  /** This machine's name, as the store records owners' hosts. */
  host: string;
  /** Sends the graceful stop (SIGTERM) to a process of this host; false when no process of ours has that pid. */
  signal: (pid: number) => boolean;
}

/**
 * Asks the process that holds `job` (its lock file, or its lease in a database) to stop as one SIGTERM
 * asks it: no new contacts, the requests in flight finish and are recorded, then it exits. Only a
 * process on this host can be signalled; one on another host is named so a person can stop it there.
 */
export async function stopJob(job: string, options: StopJobOptions): Promise<StopOutcome> {
  const runner = await options.store.runningBy(job);
  if (runner === undefined) return { kind: 'not_running' };
  if (runner.host !== options.host) return { kind: 'other_host', runner };
  return options.signal(runner.pid) ? { kind: 'signalled', runner } : { kind: 'gone', runner };
}

/** `stopJob` for the job of a job file: its name, and what was done. */
export async function stopJobFile(jobPath: string, options: StopJobOptions): Promise<{ job: string; outcome: StopOutcome }> {
  const { job } = await loadJob(jobPath);
  return { job: job.name, outcome: await stopJob(job.name, { ...options, store: options.store.account(job.company_id) }) };
}
