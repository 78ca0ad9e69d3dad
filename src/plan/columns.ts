import type { Job } from '../job/index.js';
import { placeholderColumns } from './render.js';

/**
 * Every column the job's placeholders use (text and template variables of the message and of each
 * variant, after-send custom fields), in order of first use: compared with a contact list's header,
 * it finds a misspelt column before every contact is rejected for it.
 */
export function columnsUsed(job: Pick<Job, 'message' | 'after_send'>): string[] {
  const messages = [job.message, ...job.message.variants.map((v) => v.message)];
  const sources = [
    ...messages.flatMap((m) => [m.text ?? '', ...Object.values(m.template?.variables ?? {})]),
    ...Object.values(job.after_send.custom_fields),
  ];
  return [...new Set(sources.flatMap(placeholderColumns))];
}
