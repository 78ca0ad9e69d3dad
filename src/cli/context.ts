import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from './exit.js';

/**
 * Where state lives: --state-dir, else OUTREACH_STATE_DIR, else `.outreach` in the job file's own folder
 * (so the same job run from another directory, by cron or a teammate, finds its checkpoint), else, for
 * the commands without a job (webhook, sync), `.outreach` in the working directory.
 */
export function resolveStateDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, jobFile?: string): string {
  const chosen = flag ?? env.OUTREACH_STATE_DIR;
  if (chosen !== undefined && chosen !== '') return path.resolve(chosen);
  return jobFile !== undefined ? path.join(path.dirname(path.resolve(jobFile)), '.outreach') : path.resolve('.outreach');
}

/** The platform's base URL: --base-url, else OUTREACH_BASE_URL. */
export function resolveBaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const url = flag ?? env.OUTREACH_BASE_URL;
  if (!url) {
    throw new CliError(
      'no platform address: pass --base-url https://… or set OUTREACH_BASE_URL (run `outreach sim` for a local simulator)',
    );
  }
  try {
    new URL(url);
  } catch {
    throw new CliError(`--base-url / OUTREACH_BASE_URL: "${url}" is not a URL; write it as https://host[:port][/path]`);
  }
  return url.replace(/\/+$/, '');
}

/** The integration token: --token-file, else OUTREACH_TOKEN. Never from a job file. */
export async function resolveToken(
  tokenFile: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  if (tokenFile) {
    let text: string;
    try {
      text = await readFile(tokenFile, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
      throw new CliError(`--token-file ${tokenFile}: cannot read it (${code}); give the path of a file holding the token`);
    }
    const token = text.trim();
    if (!token) throw new CliError(`--token-file ${tokenFile}: the file is empty; put the integration token in it`);
    return token;
  }
  const token = env.OUTREACH_TOKEN?.trim();
  if (!token) {
    throw new CliError(
      'no token: set OUTREACH_TOKEN or pass --token-file FILE (the token is made under Integrations in the platform settings)',
    );
  }
  return token;
}
