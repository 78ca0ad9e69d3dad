import { AuthError, ConnectionError, NotFoundError, ValidationError, isApiError, type ApiError } from '../api/index.js';
import { AppError } from './errors.js';

/** What a sentence about a platform failure can name: the address, a note for every sentence, the job whose fields were sent. */
export interface PlatformContext {
  baseUrl?: string;
  /** Added to every sentence (e.g. sync's "progress so far is kept"). */
  note?: string;
  /** The job file and the ids it gave: a 404 on its company or channel names the field to fix. */
  job?: { file: string; companyId: number; channelId: number };
}

const CHECK_BASE_URL = 'check --base-url or OUTREACH_BASE_URL';

/**
 * The one translation of platform failures into sentences for people. Anything that is not a
 * platform failure is returned as it is.
 */
export function platformError(err: unknown, context: PlatformContext = {}): unknown {
  const tail = context.note ? `; ${context.note}` : '';
  if (err instanceof AuthError) {
    return new AppError(`the token was refused (${err.status}): check OUTREACH_TOKEN or --token-file${tail}`, 'aborted');
  }
  if (err instanceof ConnectionError) {
    if (err.aborted) return new AppError(`interrupted${tail}`, 'aborted');
    const at = context.baseUrl ? ` at ${context.baseUrl}` : '';
    return new AppError(`cannot reach the platform${at} (${err.code ?? 'no answer'}); ${CHECK_BASE_URL}${tail}`, 'aborted');
  }
  if (!isApiError(err)) return err;
  if (err instanceof NotFoundError) {
    const said = notFound(err, context);
    if (said !== undefined) return new AppError(`${said}${tail}`, 'invalid');
  }
  const what = `${err.status} to ${err.method} ${err.path}${err.platformMessage ? `: ${err.platformMessage}` : ''}`;
  if (err instanceof NotFoundError || err instanceof ValidationError) {
    return new AppError(`the platform refused the request, answering ${what}${tail}`, 'invalid');
  }
  return new AppError(`the platform answered ${what}${tail}`, 'aborted');
}

/**
 * A 404 on every path tried (say, one naming the company and one every account has): the base URL
 * is wrong rather than an id. Exit 2: nothing was sent.
 */
export function wrongBaseUrl(errors: readonly ApiError[], baseUrl: string | undefined): AppError {
  const under = baseUrl ? ` under ${baseUrl}` : '';
  const paths = errors.map((e) => `${e.method} ${e.path}`);
  const listed = paths.length <= 1 ? paths.join('') : `${paths.slice(0, -1).join(', ')} and ${paths.at(-1)}`;
  return new AppError(`the platform answers 404 to every path${under} (${listed}), so the base URL is probably wrong; ${CHECK_BASE_URL}`, 'invalid');
}

/** A 404 as a sentence naming what is missing and its fix, when the path (or the platform's message) tells. */
function notFound(err: NotFoundError, context: PlatformContext): string | undefined {
  const answered = `404 to ${err.method} ${err.path}${err.platformMessage ? `: ${err.platformMessage}` : ''}`;
  const { job } = context;
  // A listing under the company (its channels, its custom fields): no id but the company's to be missing.
  const company = /^\/company\/(\d+)(?:\/[a-z-]+)?$/.exec(err.path)?.[1];
  const onChannel = /\/channels?\/\d+(?:\/|$)/.test(err.path) || /\bchannel\b/i.test(err.platformMessage);
  if (job !== undefined && onChannel) {
    return `${job.file}: channel_id ${job.channelId}: the platform has no such channel (${answered}); run \`outreach channels --company-id ${job.companyId}\` and set channel_id to one of them`;
  }
  if (company !== undefined) {
    const field = job !== undefined ? `${job.file}: company_id ${company}` : `company ${company}`;
    const fix = job !== undefined ? "set company_id to your company's id, shown in the platform's settings" : "give your company's id, shown in the platform's settings";
    return `${field}: the platform has no such company (${answered}); ${fix}`;
  }
  // A path with no id in it exists on every account: only a wrong address answers 404 there.
  if (!/\/\d+(?:\/|$)/.test(err.path)) return wrongBaseUrl([err], context.baseUrl).message;
  return undefined;
}

/** Runs a platform call, turning its failure into an AppError. */
export async function onPlatform<T>(call: () => Promise<T>, context: PlatformContext = {}): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw platformError(err, context);
  }
}
