import type { HeaderEvent } from '../checkpoint/index.js';
import { describeChange, messageFingerprint, type Job } from '../job/index.js';
import { AppError } from './errors.js';

/** What the job's state pins once sending starts: the content's hash, and the content to say what changed. */
export interface PinnedContent {
  fingerprint: string;
  content: Record<string, unknown>;
  /** What changed since the state's header, when something did (and `--force-changed` allowed it). */
  changes?: string;
}

/**
 * Refuses a job whose content changed since its state started (unless forced): the contacts not
 * yet sent would get another message than the ones already sent.
 */
export function checkContent(job: Job, jobFile: string, header: HeaderEvent | undefined, forceChanged: boolean): PinnedContent {
  const { fingerprint, content } = messageFingerprint(job);
  const otherFile = header?.job_file !== undefined && header.job_file !== jobFile ? header.job_file : undefined;
  if (otherFile !== undefined && !forceChanged) {
    throw new AppError(
      `job "${job.name}" in this state folder was started by another job file, ${otherFile}, not ${jobFile}; ` +
        'give this job its own "name" in this state folder (its suppression list and its record of who was messaged stay shared), ' +
          'or run again with --force-changed if it is the same campaign moved',
    );
  }
  const fileChange = otherFile !== undefined ? `job file ${otherFile} → ${jobFile}` : undefined;
  if (!header || header.fingerprint === fingerprint) return { fingerprint, content, ...(fileChange && { changes: fileChange }) };
  const changes = describeChange(header.content, content).join('; ');
  if (!forceChanged) {
    throw new AppError(
      `job "${job.name}": what it sends, or where, changed since this job's checkpoint started (${changes}); ` +
        'run again with --force-changed to send the new content to the contacts not yet sent, or put the old content back',
    );
  }
  return { fingerprint, content, changes: [fileChange, changes].filter(Boolean).join('; ') };
}
