import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { waitFor } from './wait.js';

const run = promisify(execFile);

/** Whether tmux is here (Debian's `tmux`; .ci/run installs it, so in CI these tests never skip). */
export async function hasTmux(): Promise<boolean> {
  if (process.env.CI) return true;
  return run('tmux', ['-V']).then(
    () => true,
    () => false,
  );
}

/**
 * A real terminal: a tmux pane of its own server (a socket named for this process), `columns` × `rows`,
 * running `command` through sh. `screen()` is what a person sees on it now.
 */
export async function terminal(command: string, options: { columns?: number; rows?: number; env?: Record<string, string> } = {}) {
  const socket = `outreach-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]) => run('tmux', ['-L', socket, ...args], { env: { ...process.env, ...options.env } });
  await tmux('new-session', '-d', '-s', 'main', '-x', String(options.columns ?? 100), '-y', String(options.rows ?? 30), command);
  const screen = async () => (await tmux('capture-pane', '-p', '-t', 'main')).stdout;
  return {
    screen,
    /** Waits until the screen shows `pattern` (a hung terminal fails the test with the screen). */
    async until(pattern: RegExp, timeoutMs = 30_000): Promise<string> {
      let last = '';
      await waitFor(async () => pattern.test((last = await screen())), timeoutMs, 100).catch(() => {
        throw new Error(`the terminal never showed ${pattern}; it shows:\n${last}`);
      });
      return last;
    },
    keys: (...keys: string[]) => tmux('send-keys', '-t', 'main', ...keys),
    close: () => tmux('kill-server').catch(() => undefined),
  };
}
