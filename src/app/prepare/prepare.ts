import { NotFoundError, type ApiClient } from '../../api/index.js';
import type { StateStore } from '../../checkpoint/index.js';
import { resolveContactFiles } from '../../job/index.js';
import { checkCustomFields, needsTemplates, preflight, type ChannelInfo, type ChannelType } from '../../plan/index.js';
import { AppError } from '../errors.js';
import type { FollowUpView } from '../follow-up/index.js';
import { loadJobIn, type ContactList } from '../load/index.js';
import { onPlatform, platformError, wrongBaseUrl, type PlatformContext } from '../platform-errors.js';


/** A job ready to plan or run: validated, its contact files found, its channel checked against the platform. */
export interface Prepared extends ContactList {
  /** The job file's absolute path. */
  jobFile: string;
  channel: ChannelInfo;
  /** The job's numbers (`channel` first): one, or a pool of the same kind, each checked like `channel`. */
  pool: ChannelInfo[];
  warnings: string[];
  /** A follow-up: its earlier job's outcomes and what it takes. */
  followUp?: FollowUpView;
}

/** Where the channel comes from: the platform (one call for channels, one for the account's templates, approved or not), or the user's word. */
export type PrepareSource = { api: ApiClient; baseUrl?: string } | { offlineChannelType?: ChannelType };

/**
 * Loads and checks a job. Online, the preflight asks the platform for the channel and the approved
 * templates; offline, the channel type is given. A problem is an AppError listing every problem.
 */
export async function prepare(jobPath: string, source: PrepareSource, at: { store?: StateStore; now?: number } = {}): Promise<Prepared> {
  const loaded = await loadJobIn(jobPath, at.store, at.now ?? Date.now());
  const job = loaded.job;
  const files = await resolveContactFiles(loaded);
  let result;
  if ('api' in source) {
    const { api } = source;
    const context: PlatformContext = {
      ...(source.baseUrl ? { baseUrl: source.baseUrl } : {}),
      job: { file: jobPath, companyId: job.company_id, channelId: job.channel_id },
    };
    const channels = await channelsOf(api, job.company_id, context);
    const templates = needsTemplates(job) ? await onPlatform(() => api.listTemplates(), context) : undefined;
    result = preflight(job, channels, templates);
    if (Object.keys(job.after_send.custom_fields).length > 0) {
      const fields = await onPlatform(() => api.listCustomFields(job.company_id), context);
      result.problems.push(...checkCustomFields(job.after_send.custom_fields, fields));
    }
  } else {
    result = preflight(job, undefined, undefined, source.offlineChannelType);
  }
  if (result.problems.length > 0) throw new AppError(`${jobPath}:\n  ${result.problems.join('\n  ')}`, 'invalid');
  return {
    job,
    jobFile: loaded.jobFile,
    files,
    namedColumns: loaded.namedColumns,
    channel: result.channel,
    pool: result.pool,
    warnings: result.warnings,
    ...(loaded.only && { only: loaded.only }),
    ...(loaded.followUp && { followUp: loaded.followUp }),
  };
}

/**
 * The company's channels. A 404 there is either the company (company_id) or the address: a path every
 * account has (the templates) tells which, answering or not.
 */
async function channelsOf(api: ApiClient, companyId: number, context: PlatformContext): Promise<ChannelInfo[]> {
  try {
    return await api.listChannels(companyId);
  } catch (err) {
    if (err instanceof NotFoundError) {
      const probe = await api.listTemplates().then(
        () => undefined,
        (probeErr: unknown) => probeErr,
      );
      if (probe instanceof NotFoundError) throw wrongBaseUrl([err, probe], context.baseUrl);
    }
    throw platformError(err, context);
  }
}
