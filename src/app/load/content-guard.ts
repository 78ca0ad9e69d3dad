import type { HeaderEvent } from '../../checkpoint/index.js';
import { describeChange, messageFingerprint, type Job } from '../../job/index.js';
import { AppError } from '../errors.js';

/** Where a job file is, for people: the host and the path (never compared: a job is its company and its name). */
export interface JobPlace {
  host?: string;
  file?: string;
}

/** What the job's state pins once sending starts: the content's hash, and the content to say what changed. */
export interface PinnedContent {
  fingerprint: string;
  content: Record<string, unknown>;
  /** What changed since the state's header, when something did (and `--force-changed` allowed it): the message, never the path. */
  changes?: string;
  /** The job was started from another place (another path or host) than this job file's: it continues there. */
  continuedFrom?: JobPlace;
}

/** "host box-a: /srv/a/jobs/bf.json", or as much of it as is known. */
export function describePlace(place: JobPlace): string {
  if (place.host !== undefined && place.file !== undefined) return `host ${place.host}: ${place.file}`;
  return place.file ?? (place.host !== undefined ? `host ${place.host}` : 'a job file this version does not know');
}

/** The place a header records the job was started from. */
export function startedFrom(header: HeaderEvent | undefined): JobPlace | undefined {
  if (header === undefined || (header.job_file === undefined && header.host === undefined)) return undefined;
  return { ...(header.host !== undefined && { host: header.host }), ...(header.job_file !== undefined && { file: header.job_file }) };
}

/**
 * A job is its company and its name, and its message pins its content: the same name with the same
 * message from another path or host is the same job, and continues (`continuedFrom` says from where it
 * was started). The same name with another message is refused (unless forced), naming both places: the
 * contacts not yet sent would get another message than the ones already sent.
 */
export function checkContent(job: Job, here: JobPlace, header: HeaderEvent | undefined, forceChanged: boolean): PinnedContent {
  const { fingerprint, content } = messageFingerprint(job);
  const started = startedFrom(header);
  const moved = started !== undefined && (started.file !== here.file || (started.host !== undefined && here.host !== undefined && started.host !== here.host));
  const continuedFrom = moved ? { continuedFrom: started } : {};
  if (!header || header.fingerprint === fingerprint) return { fingerprint, content, ...continuedFrom };
  const changes = describeChange(header.content, content).join('; ');
  if (!forceChanged) {
    if (moved) {
      throw new AppError(
        `job "${job.name}" was started from ${describePlace(started)}, and ${describePlace(here)} sends another message under the same name (${changes}); ` +
          'give a new campaign its own "name", put the old content back, or run again with --force-changed to send the new content to the contacts not yet sent',
      );
    }
    throw new AppError(
      `job "${job.name}": what it sends, or where, changed since this job's checkpoint started (${changes}); ` +
        'run again with --force-changed to send the new content to the contacts not yet sent, or put the old content back',
    );
  }
  return { fingerprint, content, changes, ...continuedFrom };
}
