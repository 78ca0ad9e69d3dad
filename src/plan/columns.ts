import type { PlanJob } from './decide.js';
import { placeholderColumns } from './render.js';

/**
 * Every column the job's placeholders use (text, template variables, after-send custom fields), in
 * order of first use: compared with a contact list's header, it finds a misspelt column before
 * every contact is rejected for it.
 */
export function columnsUsed(job: Pick<PlanJob, 'message' | 'after_send'>): string[] {
  const sources = [
    job.message.text ?? '',
    ...Object.values(job.message.template?.variables ?? {}),
    ...Object.values(job.after_send.custom_fields),
  ];
  return [...new Set(sources.flatMap(placeholderColumns))];
}
