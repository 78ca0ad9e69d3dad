/**
 * The database store's capacity, for planning past one machine (issue 36): journal rows per second
 * the PostgreSQL backend sustains with 1, 4 and 16 concurrent writers, each a job of its own opened
 * through its own store (as a run of one number in its own process is), writing the pattern of a
 * send: an attempt, then its outcome, each durable before the next; beside pgbench's simple-update
 * transactions per second (`pgbench -N`) with as many clients, on the same durable server in the
 * same run. With one send in flight a writer's rows per second are its commits per second, as a
 * pgbench client's transactions are; a run keeps many sends in flight on its job, whose journal writes
 * every event queued meanwhile in one statement, so each round is measured that way too (IN_FLIGHT
 * sends a writer), and the capacity is planned from those.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/pg-capacity.js [seconds]
 */
import { execFile as execFileCb } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createPgStore, type CheckpointEvent, type JobStore, type PgStateStore } from '../src/checkpoint/backends.js';
import { startCluster, type Cluster } from '../test/helpers/pg-cluster.js';
import { benchPhone } from './lib/fixtures.js';
import { round } from './lib/measure.js';

const execFile = promisify(execFileCb);
const log = (line: string) => process.stderr.write(`${line}\n`);

export interface CapacityRound {
  writers: number;
  /** Journal rows committed per second by all writers together (2 a send), one send in flight a writer. */
  rowsPerSec: number;
  sends: number;
  seconds: number;
  /** The same with IN_FLIGHT sends in flight a writer (a run's way: its journal shares statements between them). */
  rowsPerSecInFlight: number;
  /** pgbench -N, as many clients: transactions per second (without the initial connection time). */
  pgbenchTps: number;
  /** rowsPerSec ÷ pgbenchTps. */
  ratio: number;
}

export interface BenchPgCapacityResult {
  rounds: CapacityRound[];
  /** The seconds each side of a round ran. */
  seconds: number;
  /** pgbench's scale (-i -s). */
  scale: number;
  /** Sends in flight a writer in the run-like rounds. */
  inFlight: number;
  /** The most journal rows per second of any run-like round, and what it carries: numbers at 80/s and at 1,000/s (2 rows a send). */
  bestRowsPerSec: number;
  numbersAt80: number;
  numbersAt1000: number;
  postgres: string;
}

const SCALE = 16;
/** Sends a writer keeps in flight in the run-like rounds (a number at 80/s with answers in 0.4 s has about 32). */
export const IN_FLIGHT = 32;

export async function benchPgCapacity(opts: { seconds?: number; writers?: number[] } = {}): Promise<BenchPgCapacityResult> {
  const seconds = opts.seconds ?? 10;
  const counts = opts.writers ?? [1, 4, 16];
  const dir = mkdtempSync(join(tmpdir(), 'outreach-bench-capacity-'));
  let cluster: Cluster | undefined;
  try {
    log('pg capacity: a throwaway durable PostgreSQL cluster (fsync, synchronous commit) …');
    cluster = await startCluster({ durable: true });
    const target = ['-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'postgres', 'postgres'];
    await execFile('pgbench', ['-i', '-q', '-s', String(SCALE), ...target]);
    const { stdout: version } = await execFile('psql', [...target.slice(0, 6), '-d', 'postgres', '-At', '-c', 'SHOW server_version']);
    const rounds: CapacityRound[] = [];
    for (const writers of counts) {
      const ours = await storeWriters(`${cluster.url}?schema=capacity_${writers}`, dir, writers, seconds, 1);
      const tps = await pgbench(target, writers, seconds);
      const many = await storeWriters(`${cluster.url}?schema=capacity_${writers}_many`, dir, writers, seconds, IN_FLIGHT);
      const round_: CapacityRound = {
        writers,
        rowsPerSec: ours.rowsPerSec,
        sends: ours.sends,
        seconds: ours.seconds,
        rowsPerSecInFlight: many.rowsPerSec,
        pgbenchTps: tps,
        ratio: round(ours.rowsPerSec / tps, 2),
      };
      log(`  ${writers} writer(s): ${round_.rowsPerSec} journal rows/s (${many.rowsPerSec} with ${IN_FLIGHT} sends in flight each); pgbench -N -c ${writers}: ${tps} tps (ratio ${round_.ratio})`);
      rounds.push(round_);
    }
    const best = Math.max(...rounds.map((r) => r.rowsPerSecInFlight));
    return {
      rounds,
      seconds,
      scale: SCALE,
      inFlight: IN_FLIGHT,
      bestRowsPerSec: best,
      numbersAt80: Math.floor(best / (2 * 80)),
      numbersAt1000: Math.floor(best / (2 * 1000)),
      postgres: version.trim(),
    };
  } finally {
    await cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `pgbench -N` with `clients` clients for `seconds`: its transactions per second. */
async function pgbench(target: string[], clients: number, seconds: number): Promise<number> {
  const { stdout } = await execFile('pgbench', ['-N', '-c', String(clients), '-j', String(Math.min(clients, 2)), '-T', String(seconds), ...target]);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1];
  if (tps === undefined) throw new Error(`pgbench said no tps: ${stdout}`);
  return round(Number(tps));
}

/** `writers` jobs, each through its own store, each with `inFlight` sends at a time (attempt, then sent, each awaited) for `seconds`. */
async function storeWriters(url: string, dir: string, writers: number, seconds: number, inFlight: number): Promise<{ rowsPerSec: number; sends: number; seconds: number }> {
  const stores: PgStateStore[] = [];
  const jobs: JobStore[] = [];
  try {
    for (let w = 0; w < writers; w++) {
      const store = createPgStore(url, { filesDir: join(dir, `w${w}`) });
      stores.push(store);
      const job = await store.openJob(`capacity-${w}`, { pid: process.pid, startedAt: new Date().toISOString(), command: 'bench' });
      jobs.push(job);
      await job.record({ t: 'header', v: 1, job: `capacity-${w}`, fingerprint: 'bench', content: {}, at: new Date().toISOString() });
    }
    let sends = 0;
    const start = process.hrtime.bigint();
    const until = Date.now() + seconds * 1000;
    await Promise.all(
      jobs.flatMap((job, w) =>
        Array.from({ length: inFlight }, (_, lane) => sendLoop(job, w * 10_000_000 + lane * 100_000, until, () => (sends += 1))),
      ),
    );
    const took = Number(process.hrtime.bigint() - start) / 1e9;
    return { rowsPerSec: round((sends * 2) / took), sends, seconds: round(took, 1) };
  } finally {
    await Promise.all(jobs.map((j) => j.close().catch(() => undefined)));
    await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
  }
}

/** One send after another on `job` until `until` (wall ms): its attempt, then its outcome, each durable before the next. */
async function sendLoop(job: JobStore, first: number, until: number, sent: () => void): Promise<void> {
  for (let i = 0; Date.now() < until; i++) {
    const phone = benchPhone(first + i);
    const at = new Date().toISOString();
    await job.record({ t: 'attempt', phone, via: 'start', action: 'template', at } satisfies CheckpointEvent);
    await job.record({ t: 'sent', phone, via: 'start', action: 'template', conversation_id: String(first + i), client_id: String(first + i), message_id: String(first + i), at } satisfies CheckpointEvent);
    sent();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const seconds = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  console.log(JSON.stringify(await benchPgCapacity({ ...(seconds !== undefined && { seconds }) }), null, 2));
}
