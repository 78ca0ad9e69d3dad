import {
  type ApiClient,
  AuthError,
  ConnectionError,
  NotFoundError,
  ValidationError,
  createApiClient,
  isApiError,
} from '../api/index.js';
import { resolveBaseUrl, resolveToken } from './context.js';
import { CliError, ExitCode } from './exit.js';

/** Opens a client from the flags, runs `use`, turns API failures into one-sentence errors, always closes. */
export async function withApi<T>(
  flags: { baseUrl?: string; tokenFile?: string },
  use: (api: ApiClient) => Promise<T>,
): Promise<T> {
  const baseUrl = resolveBaseUrl(flags.baseUrl);
  const api = createApiClient({ baseUrl, token: await resolveToken(flags.tokenFile) });
  try {
    return await use(api);
  } catch (err) {
    throw toCliError(err, { baseUrl });
  } finally {
    await api.close();
  }
}

/**
 * The one translation of platform failures into sentences for people (and exit codes). `note` is
 * added to every sentence (e.g. sync's "progress so far is kept").
 */
export function toCliError(err: unknown, context: { baseUrl?: string; note?: string } = {}): unknown {
  const tail = context.note ? `; ${context.note}` : '';
  if (err instanceof AuthError) {
    return new CliError(`the token was refused (${err.status}): check OUTREACH_TOKEN or --token-file${tail}`, ExitCode.aborted);
  }
  if (err instanceof ConnectionError) {
    if (err.aborted) return new CliError(`interrupted${tail}`, ExitCode.aborted);
    const at = context.baseUrl ? ` at ${context.baseUrl}` : '';
    return new CliError(`cannot reach the platform${at} (${err.code ?? 'no answer'}); check --base-url or OUTREACH_BASE_URL${tail}`, ExitCode.aborted);
  }
  if (!isApiError(err)) return err;
  const what = `${err.status} to ${err.method} ${err.path}${err.platformMessage ? `: ${err.platformMessage}` : ''}`;
  if (err instanceof NotFoundError || err instanceof ValidationError) {
    return new CliError(`the platform refused the request, answering ${what}${tail}`, ExitCode.invalid);
  }
  return new CliError(`the platform answered ${what}${tail}`, ExitCode.aborted);
}

/**
 * Runs a long-lived command (simulator, receiver, sync) until it ends or SIGINT/SIGTERM asks it
 * to stop: `work` gets the signal that aborts then.
 */
export async function untilStopped<T>(work: (stop: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** Columns padded to their widest cell, two spaces apart. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
}
