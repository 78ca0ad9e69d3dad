/**
 * Prometheus' own tools for the tests: `promtool` (Debian's `prometheus` package) checks metric text
 * and rule files, and a real Pushgateway (Debian's `prometheus-pushgateway`) takes pushes on a free
 * port. Outside CI a missing tool skips its tests (and says so); in CI (`CI` set) they never skip:
 * `.ci/run` installs both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePort } from './pg-cluster.js';
import { waitFor } from './wait.js';

export const promtoolBin = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => existsSync(p));
export const pushgatewayBin = ['/usr/bin/prometheus-pushgateway', '/usr/local/bin/pushgateway'].find((p) => existsSync(p));

/** True when the tool is missing and the tests may skip: never in CI, where a missing tool is an error. */
export function skipWithout(bin: string | undefined, pkg: string): boolean {
  if (bin !== undefined) return false;
  if (process.env.CI) throw new Error(`Debian's ${pkg} is not installed: .ci/run installs it`);
  console.log(`tests skipped: Debian's ${pkg} is not installed (apt-get install ${pkg}); in CI they never skip`);
  return true;
}

export interface ToolResult {
  code: number | null;
  output: string;
}

/** Runs promtool with `args`, `input` on its stdin; its stdout and stderr together. */
export function promtool(args: string[], input?: string): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    if (promtoolBin === undefined) return reject(new Error('promtool is not installed'));
    const child = spawn(promtoolBin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(input ?? '');
  });
}

/** `promtool check metrics` of a text exposition: exit 0 and nothing said when it follows every naming rule. */
export function checkMetrics(text: string): Promise<ToolResult> {
  return promtool(['check', 'metrics'], text);
}

export interface RunningPushgateway {
  url: string;
  /** The gateway's own /metrics: every group's series, with their grouping labels. */
  scrape(): Promise<string>;
  close(): Promise<void>;
}

/** A Pushgateway on a free port of 127.0.0.1, keeping nothing on disk. */
export async function startPushgateway(): Promise<RunningPushgateway> {
  if (pushgatewayBin === undefined) throw new Error('prometheus-pushgateway is not installed');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(pushgatewayBin, [`--web.listen-address=127.0.0.1:${port}`, '--persistence.file=', '--log.level=warn'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(async () => (await fetch(`${url}/-/ready`).then((r) => r.ok).catch(() => false)) === true);
  return {
    url,
    scrape: async () => (await fetch(`${url}/metrics`)).text(),
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The samples of `name` in a text exposition, as label sets and values. */
export function samples(text: string, name: string): Array<{ labels: Record<string, string>; value: number }> {
  const out: Array<{ labels: Record<string, string>; value: number }> = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] ?? ''] = l[2] ?? '';
    out.push({ labels, value: Number(m[3]) });
  }
  return out;
}
