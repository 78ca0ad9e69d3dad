import type { Command } from 'commander';
import type { ApiClient } from '../api/index.js';
import type { Job } from '../job/index.js';
import { platformError, prepare, type Prepared } from '../app/index.js';
import type { StateStore } from '../checkpoint/index.js';
import { resolveBaseUrl, resolveToken } from './context.js';
import { openApi } from './api-root.js';

/** The platform's address and the token, from the flags and the environment. */
export interface Connection {
  baseUrl: string;
  token: string;
}

/** Adds `--base-url` and `--token-file` (where the platform is, and the token) to a command that sends or reads back. */
export function platformOptions(command: Command): Command {
  return command.option('--base-url <url>', 'platform address (default $OUTREACH_BASE_URL)').option('--token-file <file>', 'file holding the token (default $OUTREACH_TOKEN)');
}

export async function connectionFrom(flags: { baseUrl?: string; tokenFile?: string }): Promise<Connection> {
  return { baseUrl: resolveBaseUrl(flags.baseUrl), token: await resolveToken(flags.tokenFile) };
}

/** Opens a client (with `job`, sized for that job's requests), runs `use`, turns platform failures into one-sentence errors, always closes. */
export async function withClient<T>(connection: Connection, use: (api: ApiClient) => Promise<T>, job?: Job): Promise<T> {
  const api = openApi({ baseUrl: connection.baseUrl, token: connection.token }, job);
  try {
    return await use(api);
  } catch (err) {
    throw platformError(err, { baseUrl: connection.baseUrl });
  } finally {
    await api.close();
  }
}

/** withClient, the connection taken from the flags. */
export async function withApi<T>(flags: { baseUrl?: string; tokenFile?: string }, use: (api: ApiClient) => Promise<T>): Promise<T> {
  return withClient(await connectionFrom(flags), use);
}

/** The job checked against the platform (channel, approved templates), with a client of its own. */
export function prepareOnline(jobPath: string, connection: Connection, store?: StateStore): Promise<Prepared> {
  return withClient(connection, (api) => prepare(jobPath, { api, baseUrl: connection.baseUrl }, store ? { store } : {}));
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
