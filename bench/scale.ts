/**
 * A million-contact job: `status` and `report` on a generated 1,000,000-contact journal written in
 * the store's own format (the journal, the snapshot and the listing a run leaves), each in a fresh
 * process, against the goals (status ≤ 0.5 s and ≤ 150 MB; report ≤ 2× the time of streaming as many
 * rows of the same length to disk, measured in the same run, and ≤ 300 MB) and against the way they
 * worked before (replay the whole journal into a Map, read the whole list with the loader): those
 * baselines are measured in the same run. And `run` continuing such a job: the time from starting
 * `outreach run` to the simulator receiving its first message, once with the snapshot and the listing
 * the last run left (goal ≤ 3 s) and once with the journal alone (its snapshot removed: a journal of
 * before snapshots, or one whose snapshot was lost; goal ≤ 15 s).
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/scale.js [contacts]
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { audience } from '../src/app/audience/audience.js';
import { checkContent } from '../src/app/load/content-guard.js';
import { listFiles, listSource } from '../src/app/list/store-listing.js';
import { jobReport, jobStatus } from '../src/app/index.js';
import { ContactListing, createFileStore, replay, type CheckpointEvent } from '../src/checkpoint/backends.js';
import { readJournal } from '../src/checkpoint/file/index.js';
import { loadJob, resolveContactFiles } from '../src/job/index.js';
import { writeFileAtomic } from '../src/files/atomic.js';
import { reportRows, summarise } from '../src/report/index.js';
import { runIsolated } from './lib/isolated.js';
import { round } from './lib/measure.js';
import { startSimProcess } from './lib/sim-process.js';

export interface Timed {
  seconds: number;
  /** The process's maximum RSS (it ran alone in a fresh process). */
  peakRssMb: number;
}

export interface BenchScaleResult {
  contacts: number;
  /** Contacts at the end of the list with no state yet (the run continues with them). */
  pending: number;
  journalMb: number;
  snapshotMb: number;
  /** Writing the files: the journal (directly), the snapshot and the listing (through the store, as a run leaves them). */
  generateSeconds: number;
  /** Opening the job with no snapshot at all (the whole journal folded), which writes the snapshot. */
  openWithoutSnapshot: Timed;
  status: Timed;
  report: Timed;
  /** The report's size, and streaming as many rows of the same length to a file (the report's baseline). */
  reportMb: number;
  writeRows: Timed;
  /** Status as it was computed before: the whole journal replayed into a Map, the whole list read by the loader. */
  baseline: Timed;
  /** From starting `outreach run` to the simulator's first message, with the snapshot and listing the last run left. */
  firstRequestSeconds: number;
  /** The same with the journal alone (its snapshot removed: the whole journal folded first). */
  firstRequestNoSnapshotSeconds: number;
  /** With `keep`: the folder that holds the job file and its state folder (`state/`). */
  dir?: string;
}

export interface BenchScaleOptions {
  contacts?: number;
  /** Default 10,000: the last contacts of the list, never reached. */
  pending?: number;
  dir?: string;
  log?: (line: string) => void;
  /** Leave the generated files (for profiling); default false. */
  keep?: boolean;
  /** Skip the baseline and the run (the files only, and status and report). */
  quick?: boolean;
}

export const JOB = 'bench-million';

export async function benchScale(opts: BenchScaleOptions = {}): Promise<BenchScaleResult> {
  const contacts = opts.contacts ?? 1_000_000;
  const pending = opts.pending ?? 10_000;
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const dir = mkdtempSync(join(opts.dir ?? tmpdir(), 'outreach-bench-scale-'));
  try {
    const stateDir = join(dir, 'state');
    const jobFile = join(dir, 'job.json');
    log(`scale: writing a ${contacts.toLocaleString('en')}-row list and its journal …`);
    const t0 = Date.now();
    writeList(join(dir, 'contacts.csv'), contacts);
    writeFileSync(jobFile, JSON.stringify(jobInput()));
    const loaded = await loadJob(jobFile);
    const header: CheckpointEvent = { t: 'header', v: 1, job: JOB, ...pin(loaded.job, loaded.jobFile), job_file: loaded.jobFile, at: '2026-11-21T10:00:00.000Z' };
    const journal = join(stateDir, JOB, 'checkpoint.jsonl');
    const journalBytes = writeJournal(journal, header, contacts - pending);

    log('  opening it once through the store (the whole journal folded, the snapshot written) …');
    const openWithoutSnapshot = await isolated('timeOpen', { stateDir });
    const list = { job: loaded.job, files: await resolveContactFiles(loaded), namedColumns: loaded.namedColumns };
    const listing = new ContactListing(contacts);
    const [listFile] = list.files;
    for (let i = 0; i < contacts; i++) listing.add({ phone: phoneOf(i), line: i + 2, ...(listFile !== undefined && { file: listFile }), name: `Ana${i}`, phoneAsWritten: phoneOf(i) });
    await createFileStore(stateDir).saveListing(JOB, listSource(list, await listFiles(list), []), listing);
    const generateSeconds = (Date.now() - t0) / 1000;
    const snapshotBytes = statSync(`${journal}.snapshot`).size;

    log('  status …');
    const status = await isolated('timeStatus', { jobFile, stateDir });
    log(`    ${status.seconds} s, ${status.peakRssMb} MB`);
    // The report and its baseline alternate, REPORT_ROUNDS each; the best of each is kept (other work on a shared machine only slows a round down).
    let report: Timed | undefined;
    let writeRows: Timed | undefined;
    let reportBytes = 0;
    for (let round = 0; round < REPORT_ROUNDS; round++) {
      log(`  report (round ${round + 1} of ${REPORT_ROUNDS}) …`);
      const r = await isolated('timeReport', { jobFile, stateDir, out: join(dir, 'report.csv') });
      log(`    ${r.seconds} s, ${r.peakRssMb} MB`);
      report = best(report, r);
      reportBytes = statSync(join(dir, 'report.csv')).size;
      rmSync(join(dir, 'report.csv'), { force: true });
      log('  baseline: streaming as many rows of the same length to a file …');
      const w = await isolated('timeWriteRows', { out: join(dir, 'rows.txt'), rows: String(contacts + 1), bytes: String(reportBytes) });
      rmSync(join(dir, 'rows.txt'), { force: true });
      log(`    ${w.seconds} s, ${w.peakRssMb} MB`);
      writeRows = best(writeRows, w);
    }
    if (report === undefined || writeRows === undefined) throw new Error('REPORT_ROUNDS must be at least 1');
    if (opts.keep) log(`  kept in ${dir}`);
    log('  baseline: status as before (whole journal replayed, whole list read) …');
    const baseline = opts.quick ? { seconds: 0, peakRssMb: 0 } : await isolated('timeBaseline', { jobFile, stateDir });
    log(`    ${baseline.seconds} s, ${baseline.peakRssMb} MB`);
    log('  run continuing the job: time to its first message …');
    const firstRequestSeconds = opts.quick ? 0 : await firstRequest(jobFile, stateDir);
    log(`    ${firstRequestSeconds} s`);
    // Twice, the snapshot removed before each (a run writes one while it goes on); the quicker is kept.
    let firstRequestNoSnapshotSeconds = opts.quick ? 0 : Number.POSITIVE_INFINITY;
    for (let round = 0; round < (opts.quick ? 0 : 2); round++) {
      log(`  the same with the journal alone (its snapshot removed; round ${round + 1} of 2) …`);
      rmSync(`${journal}.snapshot`, { force: true });
      const seconds = await firstRequest(jobFile, stateDir);
      log(`    ${seconds} s`);
      firstRequestNoSnapshotSeconds = Math.min(firstRequestNoSnapshotSeconds, seconds);
    }
    return {
      contacts,
      pending,
      journalMb: round(journalBytes / 2 ** 20, 1),
      snapshotMb: round(snapshotBytes / 2 ** 20, 1),
      generateSeconds: round(generateSeconds, 1),
      openWithoutSnapshot,
      status,
      report,
      reportMb: round(reportBytes / 2 ** 20, 1),
      writeRows,
      baseline,
      firstRequestSeconds,
      firstRequestNoSnapshotSeconds,
      ...(opts.keep && { dir }),
    };
  } finally {
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  }
}

/** Rounds of the report and of its baseline, alternating. */
const REPORT_ROUNDS = 2;

/** The quicker of two timed rounds. */
function best(a: Timed | undefined, b: Timed): Timed {
  return a === undefined || b.seconds < a.seconds ? b : a;
}

/**
 * A measured step in a fresh process, after the disk has written back what earlier steps left in the
 * page cache (`sync`): a step's fsync does not wait behind hundreds of megabytes it did not write.
 */
async function isolated(name: string, arg: Record<string, string>): Promise<Timed> {
  spawnSync('sync');
  const answer = await runIsolated(new URL('./scale.js', import.meta.url), name, arg);
  if (!answer.ok) throw new Error(`${name}: ${answer.error}`);
  return answer.value as Timed;
}

/** Wraps a measured step of a fresh process: its wall time and the process's maximum RSS. */
export async function timed(step: () => Promise<unknown>): Promise<Timed> {
  const start = process.hrtime.bigint();
  await step();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { seconds: round(seconds, 2), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) };
}

export function timeOpen(arg: { stateDir: string }): Promise<Timed> {
  return timed(async () => {
    const job = await createFileStore(arg.stateDir).openJob(JOB, { pid: process.pid, startedAt: new Date().toISOString(), command: 'bench' });
    await job.close();
  });
}

export function timeStatus(arg: { jobFile: string; stateDir: string }): Promise<Timed> {
  return timed(async () => {
    const status = await jobStatus(arg.jobFile, { store: createFileStore(arg.stateDir) });
    if (status.listProblem) throw new Error(status.listProblem);
  });
}

export function timeReport(arg: { jobFile: string; stateDir: string; out: string }): Promise<Timed> {
  return timed(() => jobReport(arg.jobFile, { store: createFileStore(arg.stateDir), out: arg.out }));
}

/**
 * The report's baseline: `rows` lines of equal length, `bytes` in all, streamed to `out` in megabyte
 * writes and fsync'd, as the report is (the text made as it goes: the cost of writing the file).
 */
export function timeWriteRows(arg: { out: string; rows: string; bytes: string }): Promise<Timed> {
  return timed(async () => {
    const rows = Number(arg.rows);
    const length = Math.max(1, Math.round(Number(arg.bytes) / rows) - 1);
    const chunks = function* (): Generator<string> {
      let text = '';
      for (let i = 0; i < rows; i++) {
        text += `${String(i).padStart(length, 'x')}\n`;
        if (text.length >= 1 << 20) {
          yield text;
          text = '';
        }
      }
      if (text.length > 0) yield text;
    };
    await writeFileAtomic(arg.out, chunks());
  });
}

/** Status the way it was computed before this store: every event in memory, a Map of state objects, the list read whole, a row object per contact. */
export function timeBaseline(arg: { jobFile: string; stateDir: string }): Promise<Timed> {
  return timed(async () => {
    const loaded = await loadJob(arg.jobFile);
    const contents = await readJournal(join(arg.stateDir, JOB, 'checkpoint.jsonl'));
    const states = replay(contents.events);
    const listed: Array<{ phone: string; line: number }> = [];
    const { items } = audience({ job: loaded.job, files: await resolveContactFiles(loaded), namedColumns: loaded.namedColumns });
    for await (const item of items) if (item.kind === 'contact') listed.push({ phone: item.contact.phone, line: item.contact.line });
    const rows = reportRows(states, { pendingPhones: listed.filter((c) => !states.has(c.phone)) });
    summarise(states, { pending: rows.filter((r) => r.status === 'pending').length });
  });
}

/** Starts `outreach run` on the job and times it until the simulator stores its first message. */
async function firstRequest(jobFile: string, stateDir: string): Promise<number> {
  spawnSync('sync');
  const sim = await startSimProcess({ logRequests: false, seed: 1 });
  const cli = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
  const start = Date.now();
  const child = spawn(process.execPath, [cli, 'run', jobFile, '--no-progress'], {
    env: { ...process.env, OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: stateDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`outreach run exited (code ${child.exitCode}) before sending anything`);
      if ((await sim.stats()).messagesOutbound > 0) return round((Date.now() - start) / 1000, 2);
      if (Date.now() - start > 120_000) throw new Error('no message within 120 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    child.kill('SIGKILL');
    await sim.close();
  }
}

// ---- the generated job --------------------------------------------------------------------------

export function jobInput() {
  return {
    name: JOB,
    contacts: 'contacts.csv',
    company_id: 1,
    channel_id: 10,
    default_country: 'BR',
    message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
    rate: { per_second: 1000 },
  };
}

export function pin(job: Parameters<typeof checkContent>[0], jobFile: string): { fingerprint: string; content: Record<string, unknown> } {
  const { fingerprint, content } = checkContent(job, { file: jobFile }, undefined, false);
  return { fingerprint, content };
}

export function phoneOf(i: number): string {
  return `+55119${String(10_000_000 + i).padStart(8, '0')}`;
}

export function writeList(file: string, rows: number): void {
  const fd = openSync(file, 'w');
  try {
    let batch = 'phone,name,coupon\n';
    for (let i = 0; i < rows; i++) {
      batch += `${phoneOf(i)},Ana${i},BF${i}\n`;
      if (batch.length > 1 << 20) {
        writeSync(fd, batch);
        batch = '';
      }
    }
    writeSync(fd, batch);
  } finally {
    closeSync(fd);
  }
}

/**
 * The journal a run leaves after `settled` contacts, as the store writes it (one JSON event a line):
 * 94 % sent, 2 % failed (a provider 502, retryable), 1 % in doubt, 2 % skipped, 1 % sent with a
 * follow-up that failed; `track` has read 40 % of them delivered, half of those read.
 */
export function writeJournal(file: string, header: CheckpointEvent, settled: number): number {
  mkdirSync(join(file, '..'), { recursive: true });
  const fd = openSync(file, 'w');
  let bytes = 0;
  const put = (text: string) => {
    writeSync(fd, text);
    bytes += Buffer.byteLength(text);
  };
  try {
    let batch = `${JSON.stringify(header)}\n`;
    const t0 = Date.parse('2026-11-21T10:00:00.000Z');
    for (let i = 0; i < settled; i++) {
      const phone = phoneOf(i);
      const at = new Date(t0 + i * 7).toISOString();
      const later = new Date(t0 + i * 7 + 3).toISOString();
      const base = { phone, via: 'start', action: 'template' };
      const lines: object[] = [{ t: 'attempt', ...base, line: i + 2, at }];
      const kind = i % 100;
      if (kind < 94 || kind === 99) {
        lines.push({ t: 'sent', ...base, conversation_id: String(100_000 + i), client_id: String(5_000_000 + i), message_id: String(9_000_000 + i), at: later });
        if (kind === 99) lines.push({ t: 'followup', phone, step: 'tag:bf-2026', ok: false, error: '404: tag not found', at: later });
        // `track` read it: 40 % delivered, 20 % of them read too.
        if (kind < 40) {
          const delivered = new Date(t0 + i * 7 + 2_000).toISOString();
          const read = new Date(t0 + i * 7 + 60_000).toISOString();
          lines.push({ t: 'delivery', phone, status: kind < 20 ? 'read' : 'delivered', delivered_at: delivered, ...(kind < 20 && { read_at: read }), at: read });
        }
      } else if (kind < 96) {
        lines.push({ t: 'failed', ...base, status: 502, retryable: true, conversation_id: String(100_000 + i), client_id: String(5_000_000 + i), error: '502: (#131026) Message undeliverable', at: later });
      } else if (kind < 97) {
        // in doubt: the attempt has no outcome
      } else {
        lines.push({ t: 'skipped', phone, reason: 'opted_out', line: i + 2, at: later });
      }
      for (const line of lines) batch += `${JSON.stringify(line)}\n`;
      if (batch.length > 1 << 20) {
        put(batch);
        batch = '';
      }
    }
    put(batch);
  } finally {
    closeSync(fd);
  }
  return bytes;
}

// ---- run directly ---------------------------------------------------------------------------

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const count = process.argv.slice(2).find((a) => !a.startsWith('--'));
  const contacts = count === undefined ? undefined : Number(count);
  const r = await benchScale({ ...(contacts === undefined ? {} : { contacts }), keep: process.argv.includes('--keep'), quick: process.argv.includes('--quick') });
  console.log(JSON.stringify(r, null, 2));
}
