/**
 * Each bench runs in a fresh Node process, so one bench's heap (the loader's million rows) cannot
 * inflate another's RSS figure, and each starts with a cold JIT like a real `outreach` run.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type IsolatedAnswer = { ok: true; value: unknown } | { ok: false; error: string };

const CHILD = fileURLToPath(new URL('./isolated-child.js', import.meta.url));

/** Calls `exportName(arg)` of the module at `moduleUrl` in a child process; never rejects. */
export function runIsolated(moduleUrl: URL, exportName: string, arg: unknown): Promise<IsolatedAnswer> {
  return new Promise((resolve) => {
    let answer: IsolatedAnswer | undefined;
    const child = fork(CHILD, [moduleUrl.href, exportName, JSON.stringify(arg ?? {})], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message: IsolatedAnswer) => {
      answer = message;
    });
    child.on('error', (err) => {
      answer ??= { ok: false, error: err.message };
    });
    child.on('exit', (code, signal) => {
      resolve(answer ?? { ok: false, error: `the bench process exited (${signal ?? `code ${code}`}) without a result` });
    });
  });
}
