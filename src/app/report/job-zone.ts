import { loadJob, type Job } from '../../job/index.js';

/**
 * The zone a job's times are shown in when the person names none (no --tz, no TZ): its
 * default_timezone, or the one zone its send_window names for everybody; undefined when it names none.
 */
export function zoneOfJob(job: Pick<Job, 'default_timezone' | 'send_window'>): string | undefined {
  const window = job.send_window;
  return job.default_timezone ?? (window !== undefined && window.timezone !== 'recipient' ? window.timezone : undefined);
}

/** `zoneOfJob` of a job file; undefined when the file cannot be read (the command itself then says why). */
export async function jobZone(jobPath: string): Promise<string | undefined> {
  return loadJob(jobPath).then(
    ({ job }) => zoneOfJob(job),
    () => undefined,
  );
}
