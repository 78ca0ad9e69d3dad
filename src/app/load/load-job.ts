/**
 * Loading a job with its store, below every use case that reads one: the job file (a follow-up's
 * completed from its earlier job, follow-up/earlier-job.ts), its contact list, and the loader's options.
 */
import type { StateStore } from '../../checkpoint/index.js';
import { loadJob, type Job, type LoadedJob } from '../../job/index.js';
import { followUpJob, type AudienceJob } from '../follow-up/index.js';

/** A job's contact list: its files, and the columns the job file names in so many words (each must be in the file). */
export interface ContactList {
  job: Job;
  files: string[];
  namedColumns: LoadedJob['namedColumns'];
  /** The job file, named by a placeholder's error when a planned read finds its column missing. */
  jobFile?: string;
  /** A follow-up: the only phones of the (earlier job's) list it takes; every other row is left out. */
  only?: ReadonlySet<string>;
}

/**
 * Loads a job file, wherever a job is loaded with its store (`whole`, undefined offline): a follow-up
 * takes the earlier job's list and the phones it follows up, read from the store at `now`.
 */
export async function loadJobIn(jobPath: string, whole: StateStore | undefined, now: number): Promise<AudienceJob> {
  return followUpJob(await loadJob(jobPath), jobPath, whole, now);
}

export { loaderOptions } from './loader-options.js';
