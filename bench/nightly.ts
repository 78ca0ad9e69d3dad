/**
 * A million-contact job as users meet it (issue 36): its journal written by an older version (no
 * snapshot, no listing), continued by `outreach run` to its end; then `status --json` and
 * `report --out F` on a fresh process each, the built CLI as a user starts it; then 1,000 rows
 * appended to the list, as a nightly import does, and the time to the continuing run's first
 * message. Each figure beside a baseline measured in the same run: a fresh Node reading the
 * journal's bytes once (status), streaming as many bytes to a file (report), the same run with the
 * list unchanged (the appended list).
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/nightly.js [contacts] [--keep]
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckpointEvent } from '../src/checkpoint/index.js';
import { loadJob } from '../src/job/index.js';
import { CLI, timedNode, type ProcessTimed } from './lib/cli-process.js';
import { round } from './lib/measure.js';
import { startSimProcess } from './lib/sim-process.js';
import { JOB, jobInput, phoneOf, pin, writeJournal, writeList, type Timed } from './scale.js';

export interface FirstMessage {
  /** From spawning `outreach run` to the simulator storing its first message (or to its exit, for a run with nothing to send). */
  seconds: number;
  /** Timed to the run's `run_started` log line (the list picked, sending about to start), not to a message: the job had nothing left to send. */
  toStart?: boolean;
  /** From spawning it to its exit (undefined: it was stopped after the first message). */
  endSeconds?: number;
  exitCode?: number | null;
  /** What the run's log says it read of the list (`list_read` / `list_resumed`), when it says. */
  listRead?: string;
}

export interface BenchNightlyResult {
  contacts: number;
  pending: number;
  appended: number;
  journalMb: number;
  /** The first run, on the journal alone (no snapshot, no listing): the whole journal folded. */
  fromOldJournal: FirstMessage;
  /** `status --json` on a fresh process, twice. */
  status: Timed[];
  /** Baseline: a fresh Node reading the journal's bytes once. */
  readJournal: Timed;
  /** `report --out F` on a fresh process (the quicker of two rounds), its size. */
  report: Timed;
  reportMb: number;
  /** Baseline: streaming as many rows of the same length to a file (the quicker of two rounds). */
  writeRows: Timed;
  /** The run after the list grew by `appended` rows (the snapshot and listing left by the last run). */
  appendedRun: FirstMessage;
  /** Baseline: the same run with the list unchanged since the last run (measured before the append): nothing is left to send, so to its `run_started` line. */
  unchangedRun: FirstMessage;
  dir?: string;
}

export interface BenchNightlyOptions {
  contacts?: number;
  pending?: number;
  appended?: number;
  dir?: string;
  keep?: boolean;
  log?: (line: string) => void;
}

export async function benchNightly(opts: BenchNightlyOptions = {}): Promise<BenchNightlyResult> {
  const contacts = opts.contacts ?? 1_000_000;
  const pending = opts.pending ?? 10_000;
  const appended = opts.appended ?? 1_000;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const dir = mkdtempSync(join(opts.dir ?? tmpdir(), 'outreach-bench-nightly-'));
  try {
    const stateDir = join(dir, 'state');
    const jobFile = join(dir, 'job.json');
    const listFile = join(dir, 'contacts.csv');
    log(`nightly: a ${contacts.toLocaleString('en')}-row list and the journal an older version left (no snapshot, no listing) …`);
    writeList(listFile, contacts);
    writeFileSync(jobFile, JSON.stringify(jobInput()));
    const loaded = await loadJob(jobFile);
    const header: CheckpointEvent = { t: 'header', v: 1, job: JOB, ...pin(loaded.job, loaded.jobFile), job_file: loaded.jobFile, at: '2026-11-21T10:00:00.000Z' };
    const journal = join(stateDir, JOB, 'checkpoint.jsonl');
    const journalBytes = writeJournal(journal, header, contacts - pending);

    log('  run continuing it to its end (the whole journal folded first) …');
    const fromOldJournal = await timedRun(jobFile, stateDir, { toEnd: true });
    log(`    first message ${fromOldJournal.seconds} s, ended after ${fromOldJournal.endSeconds} s (exit ${fromOldJournal.exitCode}); ${fromOldJournal.listRead ?? ''}`);
    const env = { OUTREACH_STATE_DIR: stateDir };

    const status: Timed[] = [];
    for (let i = 0; i < 2; i++) {
      spawnSync('sync');
      const s = await timedNode(CLI, ['status', '--json', jobFile], env);
      if (s.exitCode === null || s.exitCode > 1) throw new Error(`status exited ${s.exitCode}`);
      status.push(pick(s));
      log(`  status --json: ${s.seconds} s, ${s.peakRssMb} MB`);
    }
    spawnSync('sync');
    const readJournal = pick(await timedNode(fileURLToPath(new URL('./lib/read-bytes.js', import.meta.url)), [journal]));
    log(`  baseline: a fresh Node reading the journal's ${round(journalBytes / 2 ** 20, 1)} MB once: ${readJournal.seconds} s, ${readJournal.peakRssMb} MB`);

    let report: Timed | undefined;
    let writeRows: Timed | undefined;
    let reportBytes = 0;
    const out = join(dir, 'report.csv');
    for (let i = 0; i < 2; i++) {
      spawnSync('sync');
      const r = await timedNode(CLI, ['report', jobFile, '--out', out], env);
      if (r.exitCode !== 0) throw new Error(`report exited ${r.exitCode}`);
      reportBytes = statSync(out).size;
      rmSync(out, { force: true });
      log(`  report --out: ${r.seconds} s, ${r.peakRssMb} MB (${round(reportBytes / 2 ** 20, 1)} MB)`);
      report = quicker(report, pick(r));
      spawnSync('sync');
      const w = await timeRowsFresh(join(dir, 'rows.txt'), contacts + 1, reportBytes);
      log(`  baseline: streaming as many bytes to a file: ${w.seconds} s, ${w.peakRssMb} MB`);
      writeRows = quicker(writeRows, w);
    }
    if (!report || !writeRows) throw new Error('no report round');

    log('  baseline: the run again with the list unchanged …');
    const unchangedRun = await timedRun(jobFile, stateDir, { toEnd: false, toStart: true });
    log(`    first message ${unchangedRun.seconds} s; ${unchangedRun.listRead ?? ''}`);

    log(`  ${appended.toLocaleString('en')} rows appended to the list; the run again …`);
    appendRows(listFile, contacts, appended);
    const appendedRun = await timedRun(jobFile, stateDir, { toEnd: false });
    log(`    first message ${appendedRun.seconds} s; ${appendedRun.listRead ?? ''}`);
    if (opts.keep) log(`  kept in ${dir}`);
    return {
      contacts,
      pending,
      appended,
      journalMb: round(journalBytes / 2 ** 20, 1),
      fromOldJournal,
      status,
      readJournal,
      report,
      reportMb: round(reportBytes / 2 ** 20, 1),
      writeRows,
      appendedRun,
      unchangedRun,
      ...(opts.keep && { dir }),
    };
  } finally {
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  }
}

function pick(t: ProcessTimed): Timed {
  return { seconds: t.seconds, peakRssMb: t.peakRssMb };
}

function quicker(a: Timed | undefined, b: Timed): Timed {
  return a === undefined || b.seconds < a.seconds ? b : a;
}

/** The report's baseline (scale.ts's timeWriteRows) in a fresh process, timed from outside as the report is. */
async function timeRowsFresh(out: string, rows: number, bytes: number): Promise<Timed> {
  const script = fileURLToPath(new URL('./lib/isolated-call.js', import.meta.url));
  const t = await timedNode(script, [new URL('./scale.js', import.meta.url).href, 'timeWriteRows', JSON.stringify({ out, rows: String(rows), bytes: String(bytes) })]);
  rmSync(out, { force: true });
  if (t.exitCode !== 0) throw new Error(`the rows baseline exited ${t.exitCode}`);
  return pick(t);
}

/** Rows `from` … `from + count - 1` of the generated list, appended as a nightly import does. */
export function appendRows(file: string, from: number, count: number): void {
  let text = '';
  for (let i = from; i < from + count; i++) text += `${phoneOf(i)},Ana${i},BF${i}\n`;
  appendFileSync(file, text);
}

/** `outreach run` on the job against a fresh simulator process: the time to its first message, and to its end when `toEnd`. */
async function timedRun(jobFile: string, stateDir: string, opts: { toEnd: boolean; toStart?: boolean }): Promise<FirstMessage> {
  spawnSync('sync');
  const sim = await startSimProcess({ logRequests: false, seed: 1 });
  const startedBefore = logLines(stateDir, '"event":"run_started"');
  const start = Date.now();
  const child = spawn(process.execPath, [CLI, 'run', jobFile, '--no-progress'], {
    env: { ...process.env, OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: stateDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    let seconds: number | undefined;
    for (;;) {
      if (opts.toStart && seconds === undefined && logLines(stateDir, '"event":"run_started"') > startedBefore) {
        seconds = round((Date.now() - start) / 1000, 2);
        break;
      }
      if (seconds === undefined && (await sim.stats()).messagesOutbound > 0) {
        seconds = round((Date.now() - start) / 1000, 2);
        if (!opts.toEnd) break;
      }
      if (child.exitCode !== null) {
        if (seconds === undefined) throw new Error(`outreach run exited (code ${child.exitCode}) before sending anything`);
        break;
      }
      if (Date.now() - start > 600_000) throw new Error('the run did not end within 600 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!opts.toEnd) {
      child.kill('SIGINT');
      await exited;
      return { seconds, ...(opts.toStart && { toStart: true }), ...listRead(stateDir) };
    }
    const exitCode = await exited;
    return { seconds, endSeconds: round((Date.now() - start) / 1000, 2), exitCode, ...listRead(stateDir) };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await sim.close();
  }
}

/** Lines of the job's logs that hold `text`. */
function logLines(stateDir: string, text: string): number {
  const dir = join(stateDir, JOB);
  let n = 0;
  for (const f of readdirSync(dir).filter((name) => name.endsWith('.log'))) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) if (line.includes(text)) n += 1;
  }
  return n;
}

/** The last thing the job's run.log says of reading the list. */
function listRead(stateDir: string): { listRead?: string } {
  const dir = join(stateDir, JOB);
  const logs = readdirSync(dir).filter((f) => f.endsWith('.log'));
  let last: string | undefined;
  for (const f of logs) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (line.includes('"list_')) last = line;
    }
  }
  return last === undefined ? {} : { listRead: last };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const count = process.argv.slice(2).find((a) => !a.startsWith('--'));
  const r = await benchNightly({ ...(count !== undefined && { contacts: Number(count) }), keep: process.argv.includes('--keep') });
  console.log(JSON.stringify(r, null, 2));
}
