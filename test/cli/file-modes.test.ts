/**
 * Every file the tool writes holds people's data (phones, names, messages): each is 0600 and each
 * folder it makes 0700, whatever the umask. The commands run here under umask 022, the usual one,
 * under which a plain write gives 0644 files and 0755 folders that every user of the machine reads.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cliPath, repoRoot, type CliResult } from '../helpers/cli.js';
import { schemaUrl } from '../helpers/pg-cluster.js';
import { DEMO_WAIT_MS, sharedDemo } from '../helpers/shared-demo.js';

const pgUrl = inject('pgUrl');

/** The built CLI started by a shell that sets umask 022 first; `onLine` sees stdout as it comes. */
function underUmask022(args: string[], env: Record<string, string> = {}, onOut?: (stdout: string, stop: () => void) => void): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', 'umask 022 && exec "$0" "$@"', process.execPath, cliPath, ...args], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      onOut?.(stdout, () => child.kill('SIGTERM'));
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Every file and folder under `dir` (itself included) whose mode is not 0600 (a file) or 0700 (a folder), as "path mode". */
async function notPrivate(dir: string): Promise<string[]> {
  const out: string[] = [];
  const own = await stat(dir);
  if ((own.mode & 0o777) !== 0o700) out.push(`. ${(own.mode & 0o777).toString(8)}`);
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const mode = (await stat(full)).mode & 0o777;
    const want = entry.isDirectory() ? 0o700 : 0o600;
    if (mode !== want) out.push(`${path.relative(dir, full)} ${mode.toString(8)}`);
  }
  return out;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-modes-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let sim: RunningSimulator | undefined;
let c: Campaign | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  await c?.cleanup();
  c = undefined;
});

describe('under umask 022, every file written is 0600 and every folder made 0700', () => {
  it("the demo's state folder: journal, listing, reports, run.log, the webhook's events, the lists", async () => {
    // The run's one demo, run under umask 022 (helpers/shared-demo.ts).
    const { stateDir: state, ...r } = await sharedDemo();
    expect(r.code, r.stderr).toBe(0);
    const files = (await readdir(state, { recursive: true })).map(String);
    for (const f of ['demo/checkpoint.jsonl', 'demo/report.csv', 'demo/rejects.csv', 'demo/run.log', 'demo/summary.json', 'demo/report.html', 'events.jsonl', 'window.json', 'ledger.jsonl']) {
      expect(files).toContain(f.replaceAll('/', path.sep));
    }
    expect(await notPrivate(state)).toEqual([]);
    // The folders above it that the demo made (`demo/` here) are private too.
    expect(((await stat(path.dirname(state))).mode & 0o777).toString(8)).toBe('700');
  }, DEMO_WAIT_MS);

  it('a state folder written by an older version (0644 files) has the files a later run writes made 0600', async () => {
    sim = await startSimulator({ seed: 4 });
    c = await campaign({ rows: 4, bad: 1 });
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir };
    const first = await underUmask022(['run', c.jobFile, '--no-progress'], env);
    expect(first.code, first.stderr).toBe(0);
    const job = path.join(c.stateDir, 'cli-test');
    for (const f of await readdir(job)) await chmod(path.join(job, f), 0o644);
    const again = await underUmask022(['resume', c.jobFile, '--no-progress'], env);
    expect(again.code, again.stderr).toBe(0);
    for (const f of ['checkpoint.jsonl', 'run.log', 'report.csv', 'rejects.csv', 'summary.json']) {
      expect(((await stat(path.join(job, f))).mode & 0o777).toString(8), f).toBe('600');
    }
  });

  it("the webhook's log, its events and windows, and the state folder it made", async () => {
    sim = await startSimulator({ seed: 6 });
    const state = path.join(dir, 'webhook', 'state');
    const log = path.join(dir, 'webhook', 'logs', 'webhook.log');
    const secret = 'whsec-modes';
    let delivered: Promise<void> | undefined;
    const r = await underUmask022(['webhook', '--port', '0', '--state-dir', state, '--log-file', log], { OUTREACH_WEBHOOK_SECRET: secret, OUTREACH_TOKEN: '' }, (out, stop) => {
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url === undefined || delivered !== undefined) return;
      delivered = (async () => {
        // A reply from the platform (signed by the simulator as the platform signs it).
        sim?.state.setWebhook({ url, secret });
        sim?.state.inbound('+5511987650077', 'PARAR');
        await sim?.state.webhookIdle();
        stop();
      })();
    });
    await delivered;
    expect(r.code, r.stderr).not.toBeNull();
    expect((await readdir(state)).sort()).toContain('events.jsonl');
    expect((await stat(log)).size).toBeGreaterThan(0);
    expect(await notPrivate(path.dirname(log))).toEqual([]);
    expect(await notPrivate(state)).toEqual([]);
  });

  it.skipIf(!pgUrl)("a database store's folder of files for people: report.csv, rejects.csv, run.log, summary.json", async () => {
    sim = await startSimulator({ seed: 5 });
    c = await campaign({ rows: 4, bad: 1 });
    const files = path.join(c.dir, 'people', 'files');
    const r = await underUmask022(['run', c.jobFile, '--no-progress', '--state-dir', files], { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STORE: schemaUrl(pgUrl) });
    expect(r.code, r.stderr).toBe(0);
    expect((await readdir(path.join(files, 'cli-test'))).sort()).toEqual(['rejects.csv', 'report.csv', 'run.log', 'summary.json']);
    expect(await notPrivate(path.join(c.dir, 'people'))).toEqual([]);
  });
});
