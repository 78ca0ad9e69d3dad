import type { ApiClient } from '../api/index.js';
import { toCliError } from './api-command.js';
import type { LoaderOptions } from '../contacts/index.js';
import { loadJob, resolveContactFiles, type Job } from '../job/index.js';
import { preflight, type ChannelInfo, type ChannelType } from '../plan/index.js';
import { CliError, ExitCode } from './exit.js';

/** A job ready to plan or run: validated, its contact files found, its channel checked against the platform. */
export interface Prepared {
  job: Job;
  /** The platform client, when the job was prepared online; the caller closes it. */
  api?: ApiClient;
  jobFile: string;
  files: string[];
  channel: ChannelInfo;
  warnings: string[];
}

/**
 * Loads and checks a job. With `api`, the preflight asks the platform for the channel and the
 * approved templates (one call each); offline, the channel type comes from --channel-type.
 */
export async function prepare(
  jobPath: string,
  source: { connect: (job: Job) => ApiClient; baseUrl?: string } | { offlineChannelType?: ChannelType },
): Promise<Prepared> {
  const loaded = await loadJob(jobPath);
  const job = loaded.job;
  const files = await resolveContactFiles(loaded);
  let result;
  let api: ApiClient | undefined;
  if ('connect' in source) {
    api = source.connect(job);
    const client = api;
    const platform = <T>(call: () => Promise<T>) => preflightCall(call, source.baseUrl);
    try {
      const channels = await platform(() => client.listChannels(job.company_id));
      const needsTemplates = job.message.template !== undefined;
      const templates = needsTemplates ? await platform(() => client.listTemplates({ status: 'APPROVED' })) : undefined;
      result = preflight(job, channels, templates);
    } catch (err) {
      await client.close();
      throw err;
    }
  } else {
    result = preflight(job, undefined, undefined, source.offlineChannelType);
  }
  if (result.problems.length > 0) {
    await api?.close();
    throw new CliError(`${jobPath}:\n  ${result.problems.join('\n  ')}`, ExitCode.invalid);
  }
  return { job, ...(api ? { api } : {}), jobFile: loaded.jobFile, files, channel: result.channel, warnings: result.warnings };
}

/** The loader's options, folded from the job once. */
export function loaderOptions(job: Job): LoaderOptions {
  return {
    columns: job.columns,
    ...(job.default_country ? { defaultCountry: job.default_country } : {}),
    ...(job.input.format ? { format: job.input.format } : {}),
    ...(job.input.delimiter ? { delimiter: job.input.delimiter } : {}),
    requireMobile: job.input.require_mobile,
  };
}

/** A preflight call: platform failures become one-sentence errors (a refused token exits 3). */
async function preflightCall<T>(call: () => Promise<T>, baseUrl: string | undefined): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toCliError(err, baseUrl ? { baseUrl } : {});
  }
}
