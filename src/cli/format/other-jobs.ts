import type { MessagedByOtherJobs } from '../../app/index.js';
import { count } from '../../locale/people.js';
import { formatTime, readers, type Readers } from './time.js';

/**
 * "4505 contacts of this list already got this very message from job bf (4505, last …): skipped
 * already_sent …" and "171 contacts of this list got a first message from other jobs in the last 24 h:
 * bf-2026 (171, last 18:02 America/Sao_Paulo); deferred recently_messaged until Wed 18:02
 * America/Sao_Paulo (the last of them)", or with the protection off, that they are messaged again.
 * Undefined when no contact of the list was. Times in `zone`, named.
 */
export function formatMessagedByOtherJobs(m: MessagedByOtherJobs, r: Readers, now: number): string | undefined {
  const p = readers(r);
  const localTime = (iso: string): string => formatTime(Date.parse(iso), r, now);
  const jobsOf = (byJob: MessagedByOtherJobs['byJob']) => byJob.map((j) => `${j.job} (${count(p, j.contacts)}, last ${localTime(j.lastAt)})`).join(', ');
  const same = m.sameMessage.contacts === 0
    ? undefined
    : `${count(p, m.sameMessage.contacts)} contact${m.sameMessage.contacts === 1 ? '' : 's'} of this list already got this very message from ${m.sameMessage.byJob.length === 1 ? 'job' : 'jobs'} ${jobsOf(m.sameMessage.byJob)}: skipped already_sent, never sent again (limits.repeat_message: true sends it again on purpose)`;
  const other = otherMessages(m, count(p, m.contacts), jobsOf(m.byJob), localTime);
  return same !== undefined && other !== undefined ? `${same}\n  ${other}` : (same ?? other);
}

function otherMessages(m: MessagedByOtherJobs, contacts: string, jobs: string, localTime: (iso: string) => string): string | undefined {
  if (m.contacts === 0) return undefined;
  const head = `${contacts} contact${m.contacts === 1 ? '' : 's'} of this list got a first message from other jobs in the last ${m.hours} h: ${jobs}`;
  if (!m.protectionOn) return `${head}; limits.min_hours_between_messages is 0, so they are messaged again`;
  return `${head}; deferred recently_messaged until ${m.until === undefined ? 'then' : localTime(m.until)} (the last of them)`;
}
