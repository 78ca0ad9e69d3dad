import { createHash } from 'node:crypto';
import { formatPath } from './path.js';
import type { Job } from './schema.js';

/**
 * The message content of a job (what each contact receives) and its hash. The checkpoint keeps
 * both, so a job whose content changed under a half-done run is refused, with what changed.
 * Absent parts are null, so adding one shows as "added".
 */
export function messageFingerprint(job: Pick<Job, 'message'>): { fingerprint: string; content: Record<string, unknown> } {
  const { template, text, prefer, media } = job.message;
  const content: Record<string, unknown> = {
    template: template ? { name: template.name, language: template.language, variables: template.variables } : null,
    text: text ?? null,
    prefer,
    media: media ? { url: media.url, content_type: media.content_type, file_name: media.file_name ?? null } : null,
  };
  const fingerprint = createHash('sha256').update(canonicalJson(content)).digest('hex');
  return { fingerprint, content };
}

/** JSON with object keys sorted at every level: equal content, equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What differs between two contents of `messageFingerprint`: "message.text changed", "message.media added", … */
export function describeChange(oldContent: Record<string, unknown>, newContent: Record<string, unknown>): string[] {
  const changes: string[] = [];
  diff(oldContent, newContent, ['message'], changes);
  return changes;
}

function diff(a: unknown, b: unknown, path: string[], out: string[]): void {
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) diff(a[key], b[key], [...path, key], out);
    return;
  }
  if (canonicalJson(a) === canonicalJson(b)) return;
  const where = formatPath(path);
  if (a === null || a === undefined) out.push(`${where} added`);
  else if (b === null || b === undefined) out.push(`${where} removed`);
  else out.push(`${where} changed`);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
