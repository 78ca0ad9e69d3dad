import type { Job } from '../job/index.js';
import { type UncheckedTemplate, checkMessage, jobMessages, mediaWarning, uncheckedWarnings } from './message-check.js';
import type { ChannelInfo, ChannelType, TemplateInfo } from './types.js';

/**
 * A27 (docs/assumptions.md): channel `status` 1 is active, anything else is not. Defined here because src/plan
 * does not import src/api; the simulator has its own copy in src/sim/assumptions.ts.
 */
export const ACTIVE_CHANNEL_STATUS = 1;

/** A channel whose status is known and is not the active one (A27): refused before anything is sent. An unknown status is let through. */
function isInactive(c: ChannelInfo): boolean {
  return c.status !== undefined && c.status !== ACTIVE_CHANNEL_STATUS;
}

export interface PreflightResult {
  /** The job's channel (the pool's first number). Meaningful only when `problems` is empty (otherwise a stand-in with the job's id). */
  channel: ChannelInfo;
  /** Every number of the job's pool, in the job's order (`channel` first); one for a single channel. */
  pool: ChannelInfo[];
  /** Each one stops the job before any send (exit 2). */
  problems: string[];
  warnings: string[];
}

export type PreflightJob = Pick<Job, 'company_id' | 'channel_id' | 'message'> & Partial<Pick<Job, 'channels' | 'experiment'>>;

/**
 * Checks a job against what the caller fetched from the platform, before anything is sent. Pure.
 * `channels` / `templates` undefined = offline: the channel type must then come from
 * `offlineChannelType` (--channel-type) and the templates are not checked. Online, the caller
 * fetches the templates whenever `needsTemplates(job)`. The job's own message and every variant
 * are checked alike, each problem naming its path (`message.variants[1].template`).
 */
export function preflight(
  job: PreflightJob,
  channels: readonly ChannelInfo[] | undefined,
  templates: readonly TemplateInfo[] | undefined,
  offlineChannelType?: ChannelType,
): PreflightResult {
  const problems: string[] = [];
  const warnings: string[] = [];
  const ids = job.channels ?? [job.channel_id];
  const pool = ids.map((id) => findChannel({ ...job, channel_id: id }, channels, offlineChannelType, problems, warnings));
  const found = pool[0];
  const channel = found ?? { id: job.channel_id, type: offlineChannelType ?? 'wba' };
  const known = pool.filter((c): c is ChannelInfo => c !== undefined);
  if (known.length < pool.length) return { channel, pool: known, problems, warnings };
  const mixed = mixedPoolProblem(known);
  if (mixed !== undefined) problems.push(mixed);

  const messages = jobMessages(job);
  const unchecked: UncheckedTemplate[] = [];
  for (const placed of messages) {
    const checked = checkMessage(placed, channel, templates, channels !== undefined);
    problems.push(...checked.problems);
    warnings.push(...checked.warnings);
    if (checked.unchecked) unchecked.push(checked.unchecked);
  }
  warnings.push(...uncheckedWarnings(unchecked));
  if (channel.type !== 'ww') {
    const media = mediaWarning(messages);
    if (media !== undefined) warnings.push(media);
  }
  return { channel, pool: known, problems, warnings };
}

function findChannel(
  job: PreflightJob,
  channels: readonly ChannelInfo[] | undefined,
  offlineChannelType: ChannelType | undefined,
  problems: string[],
  warnings: string[],
): ChannelInfo | undefined {
  if (!channels) {
    if (!offlineChannelType) {
      problems.push(
        `channel_id ${job.channel_id}: its type is unknown offline; pass --channel-type wba, whatsapp or ww (the type of channel ${job.channel_id})`,
      );
      return undefined;
    }
    return { id: job.channel_id, type: offlineChannelType };
  }
  const channel = channels.find((c) => c.id === job.channel_id);
  if (!channel) {
    const list = channels.length ? `channels are: ${channels.map(describeChannel).join(', ')}` : 'the company has no channels';
    problems.push(
      `channel_id ${job.channel_id} is not a channel of company ${job.company_id}; ${list}; run \`outreach channels --company-id ${job.company_id}\``,
    );
    return undefined;
  }
  if (offlineChannelType && offlineChannelType !== channel.type) {
    warnings.push(`--channel-type ${offlineChannelType} is ignored: the platform says channel ${channel.id} is ${channel.type}`);
  }
  if (isInactive(channel)) {
    problems.push(
      `channel_id ${channel.id}: channel ${describeChannel(channel)} is inactive (status ${channel.status}), so the platform refuses every send; activate it in the platform or choose another channel (outreach channels --company-id ${job.company_id})`,
    );
  }
  return channel;
}

/** The official API (wba, whatsapp) and the web session (ww) follow different message rules: a pool is of one kind. */
function mixedPoolProblem(pool: readonly ChannelInfo[]): string | undefined {
  const official = pool.filter((c) => c.type !== 'ww');
  const web = pool.filter((c) => c.type === 'ww');
  if (official.length === 0 || web.length === 0) return undefined;
  return (
    `channel_id: the pool mixes numbers of the official API (${official.map(describeChannel).join(', ')}) ` +
    `with web-session numbers (${web.map(describeChannel).join(', ')}), whose message rules differ; keep wba/whatsapp numbers together or ww numbers together`
  );
}

function describeChannel(c: ChannelInfo): string {
  const details = [c.type, c.name, isInactive(c) ? 'inactive' : undefined].filter(Boolean).join(', ');
  return `${c.id} (${details})`;
}

