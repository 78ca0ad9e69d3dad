import { createHash } from 'node:crypto';
import type { MessageContent } from './message.js';
import { formatPath } from './path.js';
import type { Job } from './schema.js';

/** The parts of a job that decide what lands where. */
export type FingerprintedJob = Pick<
  Job,
  'company_id' | 'channel_id' | 'default_country' | 'columns' | 'message' | 'conversation' | 'after_send'
> &
  Partial<Pick<Job, 'channels' | 'experiment'>>;

/**
 * What a job sends and where it lands, and its hash: the company and channel, how a national
 * number and a contact's variant are read (default_country, the country and language columns), the
 * message with every variant (template, text, media), the conversation fields start-whatsapp sends
 * (topic, pipeline, stage) and the after-send steps. The checkpoint keeps both, so a job changed
 * under a half-done run is refused, saying what changed. Absent parts are null, so adding one shows
 * as "added". Variant names only label the report, and are left out.
 */
export function messageFingerprint(job: FingerprintedJob): { fingerprint: string; content: Record<string, unknown> } {
  const content: Record<string, unknown> = {
    company_id: job.company_id,
    // A pool is compared as its list; one number as before, so a checkpoint of a single channel still matches.
    channel_id: job.channels !== undefined && job.channels.length > 1 ? job.channels : job.channel_id,
    default_country: job.default_country ?? null,
    columns: { country: job.columns.country ?? null, language: job.columns.language ?? null },
    message: wholeMessage(job.message),
    // An experiment's arms, its split and what decides it (only when there is one: a job without keeps its fingerprint).
    ...(job.experiment && {
      experiment: {
        arms: Object.fromEntries(Object.entries(job.experiment.arms).map(([arm, message]) => [arm, wholeMessage(message)])),
        test_share: job.experiment.test_share,
        metric: job.experiment.metric,
        fallback: job.experiment.fallback,
      },
    }),
    conversation: {
      topic: job.conversation.topic ?? null,
      pipeline_id: job.conversation.pipeline_id ?? null,
      pipeline_stage_id: job.conversation.pipeline_stage_id ?? null,
    },
    after_send: { tags: job.after_send.tags, custom_fields: job.after_send.custom_fields },
  };
  const fingerprint = createHash('sha256').update(canonicalJson(content)).digest('hex');
  return { fingerprint, content };
}

function wholeMessage(message: Job['message']): Record<string, unknown> {
  return {
    ...messageContent(message),
    prefer: message.prefer,
    variants: message.variants.map((v) => ({
      when: { countries: v.when.countries ?? null, language: v.when.language ?? null },
      ...messageContent(v.message),
    })),
  };
}

function messageContent(message: MessageContent): Record<string, unknown> {
  const { template, text, media } = message;
  return {
    template: template ? { name: template.name, language: template.language, variables: template.variables } : null,
    text: text ?? null,
    media: media ? { url: media.url, content_type: media.content_type, file_name: media.file_name ?? null } : null,
  };
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

/** The message-only content that checkpoints started before the fingerprint covered the rest of the job hold. */
const LEGACY_NOTE =
  'company_id, channel_id, default_country, columns, message.variants, conversation and after_send not compared: the checkpoint was started by an earlier outreach';

/**
 * What differs between two contents of `messageFingerprint`, each named by its path, with the old
 * and new values when they are short: `channel_id 7 → 9`, `message.template.language "pt_BR" →
 * "es_MX"`, `message.text changed`, `message.media added`, `message.variants[1] removed`.
 */
export function describeChange(oldContent: Record<string, unknown>, newContent: Record<string, unknown>): string[] {
  const changes: string[] = [];
  if (!Object.hasOwn(oldContent, 'message')) {
    // A checkpoint from before company_id, channel_id and the rest were covered: only the message compares.
    const { template, text, prefer, media } = isPlainObject(newContent.message) ? newContent.message : {};
    diff(oldContent, { template, text, prefer, media }, ['message'], changes);
    return [...changes, LEGACY_NOTE];
  }
  diff(oldContent, newContent, [], changes);
  return changes;
}

function diff(a: unknown, b: unknown, path: readonly PropertyKey[], out: string[]): void {
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) diff(a[key], b[key], [...path, key], out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && [...a, ...b].some(isPlainObject)) {
    // A list of objects (the variants): item by item, so the change names the item.
    for (let i = 0; i < Math.max(a.length, b.length); i++) diff(a[i], b[i], [...path, i], out);
    return;
  }
  if (canonicalJson(a) === canonicalJson(b)) return;
  const where = formatPath(path);
  if (a === null || a === undefined) out.push(`${where} added`);
  else if (b === null || b === undefined) out.push(`${where} removed`);
  else {
    const from = shown(a);
    const to = shown(b);
    out.push(from !== undefined && to !== undefined ? `${where} ${from} → ${to}` : `${where} changed`);
  }
}

/** A value short enough to show in a change: numbers, short strings, short lists of them. */
function shown(value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value.length <= 40 ? JSON.stringify(value) : undefined;
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    const text = canonicalJson(value);
    return text.length <= 60 ? text : undefined;
  }
  return undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
