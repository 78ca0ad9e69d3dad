/**
 * The executor's benchmarks, each against a baseline measured in the same run.
 *
 * 1. Throughput: 20,000 contacts through `execute` (limiter off, 64 workers, 64 sockets, a real
 *    fsync'd checkpoint) against a fresh simulator in its own process, versus autocannon (64
 *    connections, in this process) POSTing start-whatsapp with a new phone per request at another
 *    fresh simulator process. Goal: ≥ 1,000 contacts/s and ≥ 0.5 × autocannon's requests/s.
 * 2. Rate accuracy: 1,000 contacts at `createRateLimiter({ perSecond: 50 })`, 8 workers; the rate
 *    the simulator saw versus the rate asked. Goal: within 3 % of 50, never above 50 in any
 *    sliding second.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/run.js [throughput|rate] [contacts]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRateLimiter, unlimitedLimiter } from '../src/run/index.js';
import { cannon, type CannonResult } from './lib/cannon.js';
import { benchContacts } from './lib/fixtures.js';
import { fmt, mb, round, rssSampler } from './lib/measure.js';
import { sendAll, type SendAllResult } from './lib/send-all.js';
import { startSimProcess, type SimStats } from './lib/sim-process.js';

export interface BenchRunOptions {
  /** Contacts in each throughput round. Default 20,000. */
  contacts?: number;
  /** Workers and sockets in the throughput run (and autocannon's connections). Default 64. */
  concurrency?: number;
  /** Throughput rounds, executor and autocannon alternating; the best of each is kept. Default 3. */
  rounds?: number;
  /** Length of each autocannon round. Default 5 s. */
  autocannonSeconds?: number;
  /** Warm-up on each fresh simulator before measuring: this many contacts (executor) or contacts ÷ 1,000 seconds (autocannon). Default 1,000. */
  warmupContacts?: number;
  /** Contacts in the rate run. Default 1,000. */
  rateContacts?: number;
  /** The rate asked of the limiter. Default 50/s. */
  ratePerSecond?: number;
  /** Workers in the rate run. Default 8. */
  rateConcurrency?: number;
  /** Which measurements to make. Default both. */
  parts?: ReadonlyArray<'throughput' | 'rate'>;
  /** Where the checkpoints go (a temporary folder under it). Default os.tmpdir(). */
  dir?: string;
  /** Progress lines (default: stderr). */
  log?: (line: string) => void;
}

export interface ThroughputResult {
  contacts: number;
  concurrency: number;
  rounds: number;
  /** Best round: sent ÷ seconds of `execute`. */
  contactsPerSec: number;
  contactsPerSecRounds: number[];
  /** In every round, every contact ended `sent` in the checkpoint and the simulator stored one message for each. */
  allSent: boolean;
  /** Seconds of the best round. */
  seconds: number;
  /**
   * Bench process (executor + client + checkpoint), sampled every 25 ms during the first round (run in
   * a fresh process before any autocannon round); and before it.
   */
  peakRssMb: number;
  rssBeforeMb: number;
  /** The same over every executor round (the process then also holds autocannon's garbage). */
  peakRssAllRoundsMb: number;
  simPeakRssMb: number;
  /** The best round's checkpoint journal. */
  journalBytes: number;
  journalEvents: number;
  journalFlushes: number;
  largestBatch: number;
  /** CPU µs per contact or request, in the best rounds: where the time goes. */
  cpu: { executorUsPerContact: number; simUsPerContact: number; autocannonUsPerRequest: number; simUsPerRequest: number };
  autocannon: {
    connections: number;
    /** Best round: 2xx answers ÷ seconds. */
    reqPerSec: number;
    reqPerSecRounds: number[];
    seconds: number;
    requests: number;
    non2xx: number;
    errors: number;
    latencyP50Ms: number;
    latencyP99Ms: number;
  };
  /** contactsPerSec ÷ autocannon.reqPerSec */
  ratio: number;
}

export interface RateResult {
  asked: number;
  contacts: number;
  concurrency: number;
  sent: number;
  /** API requests the simulator received. */
  requests: number;
  /** Seconds from the first request's arrival at the simulator to the last one's. */
  spanSeconds: number;
  /** (requests − 1) ÷ spanSeconds */
  achievedPerSec: number;
  /** achievedPerSec ÷ asked */
  ratio: number;
  /** Most requests the simulator saw in any sliding 1,000 ms window. */
  maxInOneSecond: number;
  /** Where that busiest window starts, in ms after the first request. */
  busiestSecondAtMs: number;
  /** Seconds the whole run took (execute's start to its end). */
  seconds: number;
}

export interface BenchRunResult {
  throughput?: ThroughputResult;
  rate?: RateResult;
}

type Settled = Required<Omit<BenchRunOptions, 'log'>> & { log: (line: string) => void };

export async function benchRun(opts: BenchRunOptions = {}): Promise<BenchRunResult> {
  const o: Settled = {
    contacts: 20_000,
    concurrency: 64,
    rounds: 3,
    autocannonSeconds: 5,
    warmupContacts: 1_000,
    rateContacts: 1_000,
    ratePerSecond: 50,
    rateConcurrency: 8,
    parts: ['throughput', 'rate'],
    dir: tmpdir(),
    log: (line: string) => process.stderr.write(`${line}\n`),
    ...definedOnly(opts),
  };
  const dir = await mkdtemp(join(o.dir, 'outreach-bench-run-'));
  try {
    const result: BenchRunResult = {};
    if (o.parts.includes('throughput')) result.throughput = await throughput(o, dir);
    if (o.parts.includes('rate')) {
      o.log(`rate: ${fmt(o.rateContacts)} contacts at ${o.ratePerSecond}/s, ${o.rateConcurrency} workers (about ${Math.round(o.rateContacts / o.ratePerSecond)} s) …`);
      result.rate = await rateRun(o, dir);
      o.log(`  ${result.rate.achievedPerSec.toFixed(2)}/s achieved, at most ${result.rate.maxInOneSecond} in any sliding second`);
    }
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---- 1. throughput ----------------------------------------------------------------------------

interface ExecutorRound extends SendAllResult {
  contactsPerSec: number;
  allSent: boolean;
  simCpuSeconds: number;
  simPeakRssMb: number;
}

interface CannonRound extends CannonResult {
  simCpuSeconds: number;
}

/** Rounds of executor and autocannon, alternating which goes first; the machine is shared, so the best of each is kept. */
async function throughput(o: Settled, dir: string): Promise<ThroughputResult> {
  const executorRounds: ExecutorRound[] = [];
  const cannonRounds: CannonRound[] = [];
  const rssBeforeMb = mb(process.memoryUsage().rss);
  const peaks: number[] = [];
  for (let i = 0; i < o.rounds; i++) {
    const executorRound = async () => {
      const rss = rssSampler(25);
      try {
        executorRounds.push(await executorRun(o, dir, `bench-throughput-${i}`));
      } finally {
        peaks.push(rss.stop());
      }
      const r = executorRounds.at(-1)!;
      o.log(`  executor, round ${i + 1}: ${fmt(r.contactsPerSec)} contacts/s (${fmt(r.stats.sent)} sent in ${r.seconds.toFixed(2)} s)`);
    };
    const cannonRound = async () => {
      cannonRounds.push(await cannonRun(o));
      o.log(`  autocannon, round ${i + 1}: ${fmt(cannonRounds.at(-1)!.reqPerSec)} requests/s`);
    };
    if (i % 2 === 0) {
      await executorRound();
      await cannonRound();
    } else {
      await cannonRound();
      await executorRound();
    }
  }
  const e = best(executorRounds, (r) => r.contactsPerSec);
  const c = best(cannonRounds, (r) => r.reqPerSec);
  return {
    contacts: o.contacts,
    concurrency: o.concurrency,
    rounds: o.rounds,
    contactsPerSec: round(e.contactsPerSec),
    contactsPerSecRounds: executorRounds.map((r) => round(r.contactsPerSec)),
    allSent: executorRounds.every((r) => r.allSent),
    seconds: round(e.seconds, 3),
    peakRssMb: peaks[0]!,
    rssBeforeMb,
    peakRssAllRoundsMb: Math.max(...peaks),
    simPeakRssMb: Math.max(...executorRounds.map((r) => r.simPeakRssMb)),
    journalBytes: e.journalBytes,
    journalEvents: e.journalEvents,
    journalFlushes: e.journalFlushes,
    largestBatch: e.largestBatch,
    cpu: {
      executorUsPerContact: round((e.cpuSeconds / e.stats.sent) * 1e6),
      simUsPerContact: round((e.simCpuSeconds / e.stats.sent) * 1e6),
      autocannonUsPerRequest: round((c.cpuSeconds / c.requests) * 1e6),
      simUsPerRequest: round((c.simCpuSeconds / c.requests) * 1e6),
    },
    autocannon: {
      connections: o.concurrency,
      reqPerSec: round(c.reqPerSec),
      reqPerSecRounds: cannonRounds.map((r) => round(r.reqPerSec)),
      seconds: round(c.seconds, 2),
      requests: c.requests,
      non2xx: c.non2xx,
      errors: c.errors,
      latencyP50Ms: c.latencyP50Ms,
      latencyP99Ms: c.latencyP99Ms,
    },
    ratio: round(e.contactsPerSec / c.reqPerSec, 2),
  };
}

/** One executor round: a fresh simulator process, a warm-up on other phones and another checkpoint, then the measured run. */
async function executorRun(o: Settled, dir: string, jobName: string): Promise<ExecutorRound> {
  const sim = await startSimProcess({ logRequests: false, seed: 1 });
  try {
    if (o.warmupContacts > 0) {
      const contacts = benchContacts(o.warmupContacts, 1_000_000);
      await sendAll({ sim, jobName: `${jobName}-warmup`, contacts, concurrency: o.concurrency, limiter: unlimitedLimiter(), stateDir: dir });
    }
    const before = await sim.stats();
    const contacts = benchContacts(o.contacts);
    const run = await sendAll({ sim, jobName, contacts, concurrency: o.concurrency, limiter: unlimitedLimiter(), stateDir: dir });
    const after = await sim.stats();
    const stored = after.messagesOutbound - before.messagesOutbound;
    const allSent = run.stats.sent === o.contacts && run.sentInCheckpoint === o.contacts && stored === o.contacts;
    if (!allSent) {
      o.log(`  NOT ALL SENT: stats.sent ${run.stats.sent}, sent in the checkpoint ${run.sentInCheckpoint}, stored by the simulator ${stored}, of ${o.contacts}`);
    }
    return {
      ...run,
      contactsPerSec: run.stats.sent / run.seconds,
      allSent,
      simCpuSeconds: after.cpuSeconds - before.cpuSeconds,
      simPeakRssMb: after.peakRssMb,
    };
  } finally {
    await sim.close();
  }
}

/** One autocannon round: a fresh simulator process, a warm-up, then the measured run on the same route. */
async function cannonRun(o: Settled): Promise<CannonRound> {
  const sim = await startSimProcess({ logRequests: false, seed: 1 });
  try {
    const firstPhone = 2_000_000; // apart from the warm-up's and the executor's (another simulator anyway)
    if (o.warmupContacts > 0) await cannon(sim, o.concurrency, Math.max(1, Math.round(o.warmupContacts / 1000)), 5_000_000);
    const before = await sim.stats();
    const result = await cannon(sim, o.concurrency, o.autocannonSeconds, firstPhone);
    const after = await sim.stats();
    // The simulator's own count, as a cross-check of autocannon's.
    const seen = (after.byStatus['200'] ?? 0) - (before.byStatus['200'] ?? 0);
    if (Math.abs(seen - result.requests) > o.concurrency) o.log(`  autocannon counted ${result.requests} answers 2xx, the simulator ${seen}`);
    if (result.non2xx > 0 || result.errors > 0) o.log(`  autocannon: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
    return { ...result, simCpuSeconds: after.cpuSeconds - before.cpuSeconds };
  } finally {
    await sim.close();
  }
}

function best<T>(rounds: readonly T[], score: (r: T) => number): T {
  if (rounds.length === 0) throw new Error('rounds must be at least 1');
  return rounds.reduce((a, b) => (score(b) > score(a) ? b : a));
}

// ---- 2. rate accuracy -------------------------------------------------------------------------

/** A fresh simulator (request log on), the real limiter at `ratePerSecond`; what the simulator saw arrive. */
async function rateRun(o: Settled, dir: string): Promise<RateResult> {
  const sim = await startSimProcess({ logRequests: true, seed: 1 });
  try {
    const limiter = createRateLimiter({ perSecond: o.ratePerSecond });
    const contacts = benchContacts(o.rateContacts, 3_000_000);
    const run = await sendAll({ sim, jobName: 'bench-rate', contacts, concurrency: o.rateConcurrency, limiter, stateDir: dir, perSecond: o.ratePerSecond });
    const s: SimStats = await sim.stats();
    if (s.firstWall === undefined || s.lastWall === undefined || s.total < 2) throw new Error('the simulator logged fewer than two requests');
    const spanSeconds = (s.lastWall - s.firstWall) / 1000;
    const achievedPerSec = (s.total - 1) / spanSeconds;
    return {
      asked: o.ratePerSecond,
      contacts: o.rateContacts,
      concurrency: o.rateConcurrency,
      sent: run.stats.sent,
      requests: s.total,
      spanSeconds: round(spanSeconds, 3),
      achievedPerSec: round(achievedPerSec, 2),
      ratio: round(achievedPerSec / o.ratePerSecond, 3),
      maxInOneSecond: s.maxInOneSecond,
      busiestSecondAtMs: s.busiestSecondAtMs ?? 0,
      seconds: round(run.seconds, 2),
    };
  } finally {
    await sim.close();
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

// ---- run directly ---------------------------------------------------------------------------

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  // node dist/bench/run.js [throughput|rate] [contacts]
  const part = process.argv[2] === 'throughput' || process.argv[2] === 'rate' ? process.argv[2] : undefined;
  const count = process.argv[part ? 3 : 2];
  const r = await benchRun({ ...(part ? { parts: [part] } : {}), ...(count === undefined ? {} : { contacts: Number(count) }) });
  if (r.throughput) printThroughput(r.throughput);
  if (r.rate) {
    const q = r.rate;
    console.log(`rate            ${q.achievedPerSec}/s of ${q.asked}/s asked (ratio ${q.ratio}), at most ${q.maxInOneSecond} in any sliding second (the busiest starts ${q.busiestSecondAtMs} ms in)`);
  }
}

function printThroughput(t: ThroughputResult): void {
  console.log(`executor        ${fmt(t.contactsPerSec)} contacts/s, best of ${t.rounds} (${t.contactsPerSecRounds.map((n) => fmt(n)).join(', ')}; ${fmt(t.contacts)} contacts each${t.allSent ? ', all sent' : ', NOT ALL SENT'})`);
  console.log(`autocannon      ${fmt(t.autocannon.reqPerSec)} requests/s, best of ${t.rounds} (${t.autocannon.reqPerSecRounds.map((n) => fmt(n)).join(', ')}; ${t.autocannon.connections} connections, p50 ${t.autocannon.latencyP50Ms} ms)`);
  console.log(`ratio           ${t.ratio} (goal ≥ 0.5; and ≥ 1,000 contacts/s)`);
  console.log(`CPU             executor ${t.cpu.executorUsPerContact} µs/contact + simulator ${t.cpu.simUsPerContact} µs; autocannon ${t.cpu.autocannonUsPerRequest} µs/request + simulator ${t.cpu.simUsPerRequest} µs`);
  console.log(`peak RSS        ${t.peakRssMb} MB in the first round (bench process; ${t.rssBeforeMb} MB before; ${t.peakRssAllRoundsMb} MB over all rounds), simulator ${t.simPeakRssMb} MB`);
  console.log(`journal         ${fmt(t.journalBytes)} bytes, ${fmt(t.journalEvents)} events in ${fmt(t.journalFlushes)} fsyncs (largest ${t.largestBatch})`);
}
