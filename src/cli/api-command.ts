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
    throw toCliError(err, baseUrl);
  } finally {
    await api.close();
  }
}

/** The one translation of platform failures into sentences for people (and exit codes). */
export function toCliError(err: unknown, baseUrl?: string): unknown {
  if (err instanceof AuthError) {
    return new CliError('the token was refused (401): check OUTREACH_TOKEN or --token-file', ExitCode.aborted);
  }
  if (err instanceof ConnectionError) {
    const why = err.aborted ? 'interrupted' : (err.code ?? 'no answer');
    return new CliError(`cannot reach the platform${baseUrl ? ` at ${baseUrl}` : ''} (${why}); check --base-url or OUTREACH_BASE_URL`, ExitCode.aborted);
  }
  if (err instanceof NotFoundError || err instanceof ValidationError) {
    return new CliError(`the platform refused the request: ${err.message}`, ExitCode.invalid);
  }
  if (isApiError(err)) return new CliError(`the platform failed: ${err.message}`, ExitCode.aborted);
  return err;
}

/** Columns padded to their widest cell, two spaces apart. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
}
