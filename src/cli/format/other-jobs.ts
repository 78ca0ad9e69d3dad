import type { MessagedByOtherJobs } from '../../app/index.js';
import { formatTime } from './time.js';

/**
 * "171 contacts of this list got a first message from other jobs in the last 24 h: bf-2026 (171, last
 * 18:02 America/Sao_Paulo); deferred recently_messaged until Wed 18:02 America/Sao_Paulo (the last of
 * them)", or with the protection off, that they are messaged again. Undefined when no contact of the
 * list was. Times in `zone`, named.
 */
export function formatMessagedByOtherJobs(m: MessagedByOtherJobs, zone: string, now: number): string | undefined {
  const localTime = (iso: string): string => formatTime(Date.parse(iso), zone, now);
  const same = formatSameMessage(m, localTime);
  const other = formatOtherMessages(m, localTime);
  return same !== undefined && other !== undefined ? `${same}\n  ${other}` : (same ?? other);
}

/** "4505 contacts of this list already got this message from job bf (4505, last …): skipped already_sent". */
function formatSameMessage(m: MessagedByOtherJobs, localTime: (iso: string) => string): string | undefined {
  const { contacts, byJob } = m.sameMessage;
  if (contacts === 0) return undefined;
  const jobs = byJob.map((j) => `${j.job} (${j.contacts}, last ${localTime(j.lastAt)})`).join(', ');
  return `${contacts} contact${contacts === 1 ? '' : 's'} of this list already got this very message from ${byJob.length === 1 ? 'job' : 'jobs'} ${jobs}: skipped already_sent, never sent again (limits.repeat_message: true sends it again on purpose)`;
}

function formatOtherMessages(m: MessagedByOtherJobs, localTime: (iso: string) => string): string | undefined {
  if (m.contacts === 0) return undefined;
  const jobs = m.byJob.map((j) => `${j.job} (${j.contacts}, last ${localTime(j.lastAt)})`).join(', ');
  const head = `${m.contacts} contact${m.contacts === 1 ? '' : 's'} of this list got a first message from other jobs in the last ${m.hours} h: ${jobs}`;
  if (!m.protectionOn) return `${head}; limits.min_hours_between_messages is 0, so they are messaged again`;
  return `${head}; deferred recently_messaged until ${m.until === undefined ? 'then' : localTime(m.until)} (the last of them)`;
}
