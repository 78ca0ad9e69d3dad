import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { CliError } from './exit.js';

/**
 * The account's store of this user on this machine, when nothing names another: `$STATE_DIRECTORY` (the
 * first, when systemd's `StateDirectory=` gives several), else `$XDG_STATE_HOME/outreach` (an absolute
 * path, as the XDG base directory specification wants), else `~/.local/state/outreach`. Every job file of
 * the machine shares it, wherever it sits: the business's memory is one.
 */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const systemd = env.STATE_DIRECTORY?.split(':')[0];
  if (systemd !== undefined && systemd !== '') return path.resolve(systemd);
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'outreach');
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return path.join(home, '.local', 'state', 'outreach');
}

/** The state folder a flag or OUTREACH_STATE_DIR names, when one does. */
export function explicitStateDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = flag ?? env.OUTREACH_STATE_DIR;
  return chosen !== undefined && chosen !== '' ? path.resolve(chosen) : undefined;
}

/** Where state lives: --state-dir, else OUTREACH_STATE_DIR, else the account's store of this machine (`defaultStateDir`). */
export function resolveStateDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return explicitStateDir(flag, env) ?? defaultStateDir(env);
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
