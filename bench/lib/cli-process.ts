/**
 * The built CLI in a fresh process, as a user starts it: its wall time from spawn to exit and its
 * maximum RSS (bench/lib/rss-at-exit.ts, preloaded).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { round } from './measure.js';

export const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const HOOK = new URL('./rss-at-exit.js', import.meta.url).href;

export interface ProcessTimed {
  seconds: number;
  peakRssMb: number;
  exitCode: number | null;
  stdout: string;
}

/** Runs `node [--import hook] script args` to its end; `env` is added to this process's. */
export async function timedNode(script: string, args: readonly string[], env: Record<string, string> = {}, nodeFlags: readonly string[] = []): Promise<ProcessTimed> {
  const dir = mkdtempSync(join(tmpdir(), 'outreach-bench-rss-'));
  const rssFile = join(dir, 'rss');
  try {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, [...nodeFlags, '--import', HOOK, script, ...args], {
      env: { ...process.env, ...env, BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      if (stdout.length < 1 << 20) stdout += d;
    });
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve(code));
    });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const kb = Number(readFileSync(rssFile, 'utf8'));
    return { seconds: round(seconds, 2), peakRssMb: Math.round(kb / 1024), exitCode, stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
