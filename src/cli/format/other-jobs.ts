import { DateTime } from 'luxon';
import type { MessagedByOtherJobs } from '../../app/index.js';

/**
 * "171 contacts of this list got a first message from other jobs in the last 24 h: bf-2026 (171, last
 * 2026-11-24 18:02 UTC-03:00); deferred recently_messaged until 2026-11-25 18:02 UTC-03:00", or with the
 * protection off, that they are messaged again. Undefined when no contact of the list was. Times in
 * this machine's zone, with its offset.
 */
export function formatMessagedByOtherJobs(m: MessagedByOtherJobs): string | undefined {
  if (m.contacts === 0) return undefined;
  const jobs = m.byJob.map((j) => `${j.job} (${j.contacts}, last ${localTime(j.lastAt)})`).join(', ');
  const head = `${m.contacts} contact${m.contacts === 1 ? '' : 's'} of this list got a first message from other jobs in the last ${m.hours} h: ${jobs}`;
  if (!m.protectionOn) return `${head}; limits.min_hours_between_messages is 0, so they are messaged again`;
  return `${head}; deferred recently_messaged until ${m.until === undefined ? 'then' : localTime(m.until)} (the last of them)`;
}

/** "2026-11-24 18:02 UTC-03:00": an ISO time in this machine's zone, the offset shown. */
function localTime(iso: string): string {
  return DateTime.fromISO(iso).toFormat("yyyy-MM-dd HH:mm 'UTC'ZZ");
}
