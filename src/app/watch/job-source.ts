import type { JobRunner, StoredJob } from '../../checkpoint/index.js';
import { loadJob, type LoadedJob } from '../../job/index.js';

/**
 * Where a stored job's figures come from: its job file, read here as `status` reads it (the list's
 * contacts never reached, the rate asked, the messaging limit, an experiment, a pool), or, when no job
 * file of it can be read on this machine, the store alone (`why` says which file and why not).
 */
export type JobSource = { kind: 'job_file'; loaded: LoadedJob } | { kind: 'store'; why: string };

/**
 * The job file of a stored job: the one its running owner took it from, else the one that started its
 * state, the first that reads as a job of the same name and company. A file of another job now (renamed,
 * another company) is not its file.
 */
export async function jobSource(stored: StoredJob, runner: JobRunner | undefined): Promise<JobSource> {
  const files = [...new Set([runner?.jobFile, stored.jobFile].filter((f): f is string => f !== undefined))];
  if (files.length === 0) return { kind: 'store', why: 'its state names no job file (it was started by an earlier version)' };
  const problems: string[] = [];
  for (const file of files) {
    const loaded = await loadJob(file).catch((err: unknown) => (err instanceof Error ? err.message.split('\n')[0] ?? '' : String(err)));
    if (typeof loaded === 'string') {
      problems.push(`${file} cannot be read here (${loaded})`);
      continue;
    }
    if (loaded.job.name !== stored.name || (stored.company !== undefined && loaded.job.company_id !== stored.company)) {
      problems.push(`${file} is now job "${loaded.job.name}" of company ${loaded.job.company_id}`);
      continue;
    }
    return { kind: 'job_file', loaded };
  }
  return { kind: 'store', why: problems.join('; ') };
}
