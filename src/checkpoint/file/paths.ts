import { makePrivateDir } from '../../files/private.js';
import { jobFilesIn } from '../job-files.js';
import path from 'node:path';

/** Every file of one job's state folder, `<stateDir>/<job>/`. */
export interface JobStatePaths {
  dir: string;
  checkpoint: string;
  lock: string;
  runLog: string;
  report: string;
  rejects: string;
  summary: string;
  /** Rows the last plan pass rejected (file:line), so status and report do not count them as pending. */
  planRejects: string;
  /** A job's notes (`StateStore.jobNote`), one file: { key: value }. */
  notes: string;
  /** The list's usable contacts as the last full read found them (listing-file.ts). */
  listing: string;
}

/** The files shared by every job of a state folder (the webhook's). */
export interface GlobalStatePaths {
  events: string;
  window: string;
  sync: string;
  /** The suppression list: phones no job may message. */
  suppressions: string;
  /** Every first message of every job (the messaging limit and the frequency cap). */
  ledger: string;
  /** The messaging-limit places each running process holds (budget-file.ts). */
  budgetHolds: string;
  /** Taken while one process reads and rewrites the holds. */
  budgetLock: string;
}

export { JobNameError } from '../job-files.js';

/**
 * The job's folder in the state folder, and the files for people: beside the state (the layout of a
 * `--state-dir`) or, with `filesDir`, in the job's folder there (beside the job file).
 */
export function jobStatePaths(stateDir: string, jobName: string, filesDir: string = stateDir): JobStatePaths {
  const { dir } = jobFilesIn(stateDir, jobName);
  const { report, rejects, summary, log } = jobFilesIn(filesDir, jobName);
  return {
    dir,
    checkpoint: path.join(dir, 'checkpoint.jsonl'),
    lock: path.join(dir, 'lock'),
    runLog: log,
    report,
    rejects,
    summary,
    planRejects: path.join(dir, 'plan-rejects.json'),
    notes: path.join(dir, 'notes.json'),
    listing: path.join(dir, 'listing.bin'),
  };
}

export function globalStatePaths(stateDir: string): GlobalStatePaths {
  return {
    events: path.join(stateDir, 'events.jsonl'),
    window: path.join(stateDir, 'window.json'),
    sync: path.join(stateDir, 'sync.json'),
    suppressions: path.join(stateDir, 'suppressions.jsonl'),
    ledger: path.join(stateDir, 'ledger.jsonl'),
    budgetHolds: path.join(stateDir, 'budget-holds.json'),
    budgetLock: path.join(stateDir, 'budget-holds.lock'),
  };
}

/** Creates the folder (and its parents) when missing, private (0700). */
export async function ensureDir(dir: string): Promise<void> {
  await makePrivateDir(dir);
}
