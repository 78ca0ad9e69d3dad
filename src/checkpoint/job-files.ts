/**
 * Where a job's files for people go (report, rejects, summary, run log): a folder named after the job
 * inside a local folder. Every backend places them the same way; the file backend keeps its state
 * beside them, a database backend nothing.
 */
import path from 'node:path';
import type { JobFiles } from './store.js';

/** An error a user can fix (the job name), printed without a stack trace. */
export class JobNameError extends Error {
  readonly userError = true;
  constructor(message: string) {
    super(message);
    this.name = 'JobNameError';
  }
}

/** The job name becomes a folder: it must stay one folder inside the local folder. */
function assertFolderName(jobName: string): void {
  if (jobName === '' || jobName === '.' || jobName === '..' || /[/\\\0]/.test(jobName)) {
    throw new JobNameError(`job name "${jobName}" cannot be used as a folder name; use letters, digits, "-" or "_"`);
  }
}

/** The job's files for people inside `localDir`. */
export function jobFilesIn(localDir: string, jobName: string): JobFiles {
  assertFolderName(jobName);
  const dir = path.join(localDir, jobName);
  return {
    dir,
    report: path.join(dir, 'report.csv'),
    rejects: path.join(dir, 'rejects.csv'),
    summary: path.join(dir, 'summary.json'),
    log: path.join(dir, 'run.log'),
    testSends: path.join(dir, 'test-sends.jsonl'),
  };
}
