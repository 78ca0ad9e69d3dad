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
export function checkContent(job: Job, header: HeaderEvent | undefined, forceChanged: boolean): PinnedContent {
  const { fingerprint, content } = messageFingerprint(job);
  if (!header || header.fingerprint === fingerprint) return { fingerprint, content };
  const changes = describeChange(header.content, content).join('; ');
  if (!forceChanged) {
    throw new AppError(
      `job "${job.name}": the message changed since this job's checkpoint started (${changes}); ` +
        'run again with --force-changed to send the new content to the contacts not yet sent, or give the job a new name',
    );
  }
  return { fingerprint, content, changes };
}
