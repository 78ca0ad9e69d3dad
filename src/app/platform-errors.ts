import { AuthError, ConnectionError, NotFoundError, ValidationError, isApiError } from '../api/index.js';
import { AppError } from './errors.js';

/**
 * The one translation of platform failures into sentences for people. `note` is added to every
 * sentence (e.g. sync's "progress so far is kept"). Anything that is not a platform failure is
 * returned as it is.
 */
export function platformError(err: unknown, context: { baseUrl?: string; note?: string } = {}): unknown {
  const tail = context.note ? `; ${context.note}` : '';
  if (err instanceof AuthError) {
    return new AppError(`the token was refused (${err.status}): check OUTREACH_TOKEN or --token-file${tail}`, 'aborted');
  }
  if (err instanceof ConnectionError) {
    if (err.aborted) return new AppError(`interrupted${tail}`, 'aborted');
    const at = context.baseUrl ? ` at ${context.baseUrl}` : '';
    return new AppError(`cannot reach the platform${at} (${err.code ?? 'no answer'}); check --base-url or OUTREACH_BASE_URL${tail}`, 'aborted');
  }
  if (!isApiError(err)) return err;
  const what = `${err.status} to ${err.method} ${err.path}${err.platformMessage ? `: ${err.platformMessage}` : ''}`;
  if (err instanceof NotFoundError || err instanceof ValidationError) {
    return new AppError(`the platform refused the request, answering ${what}${tail}`, 'invalid');
  }
  return new AppError(`the platform answered ${what}${tail}`, 'aborted');
}

/** Runs a platform call, turning its failure into an AppError. */
export async function onPlatform<T>(call: () => Promise<T>, context: { baseUrl?: string; note?: string } = {}): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw platformError(err, context);
  }
}
