import { vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { CliResult } from './cli.js';

/**
 * Runs the command line in this process (so coverage sees it), as `runCli` of helpers/cli.ts runs the
 * built one in a child: the same arguments, environment, exit code, stdout and stderr.
 */
export async function cli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  const savedEnv = { ...process.env };
  const savedCwd = process.cwd();
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  // No locale unless a test gives one: the figures and times of the outputs asserted are the plain ones.
  Object.assign(process.env, { NO_COLOR: '1', LC_ALL: '', LANG: 'C.UTF-8' }, options.env);
  if (options.cwd) process.chdir(options.cwd);
  try {
    const code = await runCli(['node', 'outreach', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    if (options.cwd) process.chdir(savedCwd);
    for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
    Object.assign(process.env, savedEnv);
  }
}
