import type { Job } from '../job/index.js';
import { customFieldParts } from './rules/fill.js';
import { jobMessages } from './message-check.js';
import { placeholderColumns } from './render.js';

/** One column a placeholder fills from, and the first place in the job that uses it. */
export interface ColumnUse {
  column: string;
  /** `message.template.variables["2"]`, `message.variants[1].text`, `after_send.custom_fields.coupon`. */
  path: string;
}

/**
 * Every column the job's placeholders use (text and template variables of the message and of each
 * variant, after-send custom fields), in order of first use, each with where it is first used:
 * compared with a contact list's header, it finds a misspelt column before every contact is
 * rejected for it.
 */
export function columnUses(job: Pick<Job, 'message' | 'after_send'> & Partial<Pick<Job, 'experiment'>>): ColumnUse[] {
  const sources: Array<{ path: string; source: string }> = [];
  for (const { path, content } of jobMessages(job)) {
    if (content.text !== undefined) sources.push({ path: `${path}.text`, source: content.text });
    const variables = Object.entries(content.template?.variables ?? {}).sort(([a], [b]) => Number(a) - Number(b));
    for (const [position, source] of variables) sources.push({ path: `${path}.template.variables["${position}"]`, source });
  }
  for (const part of customFieldParts(job)) sources.push({ path: part.label, source: part.source });
  const uses = new Map<string, ColumnUse>();
  for (const { path, source } of sources) {
    for (const column of placeholderColumns(source)) if (!uses.has(column)) uses.set(column, { column, path });
  }
  return [...uses.values()];
}

/** The columns of `columnUses`, alone. */
export function columnsUsed(job: Pick<Job, 'message' | 'after_send'> & Partial<Pick<Job, 'experiment'>>): string[] {
  return columnUses(job).map((u) => u.column);
}
