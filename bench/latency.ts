/**
 * The rate reached when the platform answers slowly, each case against a baseline of the same run:
 *
 * 1. Simulator latency 500 ms ± 100 and `per_second` 500, then 2,000 ms ± 400 and `per_second` 200:
 *    `execute` with the job's default settings (rate.concurrency "auto") versus the same at a fixed
 *    concurrency of 64 (the old ceiling). Goal: auto ≥ 95 % of the asked rate, never above it in any
 *    sliding second.
 *    How soon it gets there: the time from the first answer until the runner first lets 95 % of the
 *    asked rate go within one second (goal ≤ 2 s), against a baseline of the same run whose fixed
 *    concurrency was sized in advance from the latency the simulator is set to (rate × (latency +
 *    jitter) × 1.3: what a run that knew the latency before the first answer would use).
 * 2. A 15-second campaign at 500 ms ± 100 and 300/s, "auto": the rate over its whole run (goal ≥ 95 %
 *    of the asked rate, never above it in any second as the runner lets requests go), against the same
 *    campaign at the concurrency sized in advance.
 * 3. Peak memory with 1,000 requests in flight: latency 1,000 ms ± 100, `per_second` 1,000, "auto"
 *    (its target, 1,000 × 1.1 s × 1.3, is above max_concurrency, so the limit sits at 1,000).
 *    Goal: ≤ 300 MB for the bench process (executor, client, checkpoint).
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/latency.js [cases] [campaign] [memory]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRateLimiter, targetLimit } from '../src/run/index.js';
import { benchContacts } from './lib/fixtures.js';
import { fmt, mb, round, rssSampler } from './lib/measure.js';
import { reachedAfter, sendAll } from './lib/send-all.js';
import { startSimProcess, type SimStats } from './lib/sim-process.js';

export interface LatencyCase {
  latencyMs: number;
  jitterMs: number;
  perSecond: number;
  /** Contacts of the run with the default settings. */
  contacts: number;
  /** Contacts of the fixed-64 baseline (it is slower: fewer keep it short); 0: none. */
  baselineContacts: number;
  /** Contacts of the baseline at a concurrency sized in advance for the latency; 0 or absent: none. */
  sizedContacts?: number;
}

export interface RateAtLatency {
  concurrency: number | 'auto';
  contacts: number;
  sent: number;
  /** (requests − 1) ÷ (last arrival − first arrival), as the simulator logged them. */
  achievedPerSec: number;
  /** The same after the first 5 seconds (once the limit has grown), when the run lasted longer. */
  steadyPerSec: number | undefined;
  ratio: number;
  maxInOneSecond: number;
  /** The same as the runner itself let requests go (its pace() times). */
  maxPacedInOneSecond: number;
  peakInFlight: number;
  finalLimit: number;
  seconds: number;
  /** The first answer, in ms after the first request left. */
  firstAnswerMs: number | undefined;
  /** From the first answer until the runner first let 95 % of the asked rate go within one second, in ms; undefined: never. */
  reached95AfterFirstAnswerMs: number | undefined;
}

export interface LatencyCaseResult extends LatencyCase {
  auto: RateAtLatency;
  fixed64?: RateAtLatency;
  /** The same at a fixed concurrency sized in advance: rate × (latency + jitter) × 1.3. */
  sized?: RateAtLatency;
}

export interface InFlightMemory {
  latencyMs: number;
  perSecond: number;
  contacts: number;
  peakInFlight: number;
  peakRssMb: number;
  rssBeforeMb: number;
  achievedPerSec: number;
  maxInOneSecond: number;
}

export interface BenchLatencyResult {
  cases: LatencyCaseResult[];
  /** The 15-second campaign (no fixed-64 baseline). */
  campaign?: LatencyCaseResult;
  memory?: InFlightMemory;
}

export interface BenchLatencyOptions {
  cases?: LatencyCase[];
  /** The 15-second campaign; null: skip it. */
  campaign?: LatencyCase | null;
  /** Contacts of the 1,000-in-flight memory run (0: skip it). Default 12,000. */
  memoryContacts?: number;
  dir?: string;
  log?: (line: string) => void;
}

export const DEFAULT_CASES: LatencyCase[] = [
  { latencyMs: 500, jitterMs: 100, perSecond: 500, contacts: 10_000, baselineContacts: 2_000, sizedContacts: 2_000 },
  { latencyMs: 2_000, jitterMs: 400, perSecond: 200, contacts: 6_000, baselineContacts: 600, sizedContacts: 1_200 },
];

/** 15 seconds of sending at 300/s with 500 ms answers. */
export const CAMPAIGN: LatencyCase = { latencyMs: 500, jitterMs: 100, perSecond: 300, contacts: 4_500, baselineContacts: 0, sizedContacts: 4_500 };

/** The share of the asked rate "reached" means. */
export const REACHED_SHARE = 0.95;

/** The fixed concurrency a run would use if it knew the latency in advance. */
export function sizedConcurrency(c: LatencyCase): number {
  return targetLimit({ rate: c.perSecond, min: 1, max: 1000 }, c.latencyMs + c.jitterMs);
}

/** Seconds at the start of a run left out of the steady rate (the adaptive limit is still growing). */
const RAMP_SECONDS = 5;

export async function benchLatency(opts: BenchLatencyOptions = {}): Promise<BenchLatencyResult> {
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const dir = await mkdtemp(join(opts.dir ?? tmpdir(), 'outreach-bench-latency-'));
  try {
    let from = 10_000_000;
    const oneCase = async (c: LatencyCase): Promise<LatencyCaseResult> => {
      log(`latency ${c.latencyMs} ms ± ${c.jitterMs}, ${c.perSecond}/s asked: ${fmt(c.contacts)} contacts with the default settings …`);
      const auto = await rateRun(c, 'auto', c.contacts, from, dir);
      from += c.contacts;
      log(`  auto: ${auto.achievedPerSec}/s (${(auto.ratio * 100).toFixed(1)} %), at most ${auto.maxInOneSecond} in a second, ${auto.peakInFlight} in flight at most; ${REACHED_SHARE * 100} % ${rampText(auto)}`);
      const result: LatencyCaseResult = { ...c, auto };
      if (c.baselineContacts > 0) {
        log(`  … and ${fmt(c.baselineContacts)} contacts at a fixed concurrency of 64`);
        result.fixed64 = await rateRun(c, 64, c.baselineContacts, from, dir);
        from += c.baselineContacts;
        log(`  fixed 64: ${result.fixed64.achievedPerSec}/s`);
      }
      if (c.sizedContacts) {
        const n = sizedConcurrency(c);
        log(`  … and ${fmt(c.sizedContacts)} contacts at a fixed concurrency sized in advance (${n})`);
        result.sized = await rateRun(c, n, c.sizedContacts, from, dir);
        from += c.sizedContacts;
        log(`  sized ${n}: ${result.sized.achievedPerSec}/s; ${REACHED_SHARE * 100} % ${rampText(result.sized)}`);
      }
      return result;
    };
    const cases: LatencyCaseResult[] = [];
    for (const c of opts.cases ?? DEFAULT_CASES) cases.push(await oneCase(c));
    const result: BenchLatencyResult = { cases };
    const campaign = opts.campaign === undefined ? CAMPAIGN : opts.campaign;
    if (campaign) {
      log('a 15-second campaign:');
      result.campaign = await oneCase(campaign);
    }
    const memoryContacts = opts.memoryContacts ?? 12_000;
    if (memoryContacts > 0) {
      log(`1,000 requests in flight: latency 1,000 ms, 1,000/s asked, ${fmt(memoryContacts)} contacts …`);
      result.memory = await memoryRun(memoryContacts, from, dir);
      log(`  peak RSS ${result.memory.peakRssMb} MB with ${result.memory.peakInFlight} in flight`);
    }
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function rateRun(c: LatencyCase, concurrency: number | 'auto', contacts: number, from: number, dir: string): Promise<RateAtLatency> {
  const sim = await startSimProcess({ logRequests: true, seed: 1, faults: { latencyMs: c.latencyMs, latencyJitterMs: c.jitterMs } });
  try {
    const run = await sendAll({
      sim,
      jobName: `bench-latency-${c.latencyMs}-${concurrency}`,
      contacts: benchContacts(contacts, from),
      concurrency,
      limiter: createRateLimiter({ perSecond: c.perSecond }),
      stateDir: dir,
      perSecond: c.perSecond,
    });
    const s = await sim.stats();
    const achieved = achievedRate(s);
    const need = Math.ceil(REACHED_SHARE * c.perSecond);
    return {
      concurrency,
      contacts,
      sent: run.stats.sent,
      achievedPerSec: round(achieved, 1),
      steadyPerSec: steadyRate(s),
      ratio: round(achieved / c.perSecond, 3),
      maxInOneSecond: s.maxInOneSecond,
      maxPacedInOneSecond: run.maxPacedInOneSecond,
      peakInFlight: run.peakInFlight,
      finalLimit: run.finalLimit,
      seconds: round(run.seconds, 1),
      firstAnswerMs: run.firstAnswerMs === undefined ? undefined : round(run.firstAnswerMs),
      reached95AfterFirstAnswerMs: run.firstAnswerMs === undefined ? undefined : roundOrUndefined(reachedAfter(run.pacedMs, run.firstAnswerMs, 1000, need)),
    };
  } finally {
    await sim.close();
  }
}

async function memoryRun(contacts: number, from: number, dir: string): Promise<InFlightMemory> {
  const perSecond = 1_000;
  const latencyMs = 1_000;
  const sim = await startSimProcess({ logRequests: true, seed: 1, faults: { latencyMs, latencyJitterMs: 100 } });
  const rssBeforeMb = mb(process.memoryUsage().rss);
  const rss = rssSampler(25);
  try {
    const run = await sendAll({
      sim,
      jobName: 'bench-in-flight',
      contacts: benchContacts(contacts, from),
      concurrency: 'auto',
      limiter: createRateLimiter({ perSecond }),
      stateDir: dir,
      perSecond,
    });
    const peakRssMb = rss.stop();
    const s = await sim.stats();
    return { latencyMs, perSecond, contacts, peakInFlight: run.peakInFlight, peakRssMb, rssBeforeMb, achievedPerSec: round(achievedRate(s), 1), maxInOneSecond: s.maxInOneSecond };
  } finally {
    rss.stop();
    await sim.close();
  }
}

function roundOrUndefined(n: number | undefined): number | undefined {
  return n === undefined ? undefined : round(n);
}

function rampText(r: RateAtLatency): string {
  return r.reached95AfterFirstAnswerMs === undefined
    ? 'never reached'
    : `reached ${r.reached95AfterFirstAnswerMs} ms after the first answer (which came ${r.firstAnswerMs} ms after the first request)`;
}

function achievedRate(s: SimStats): number {
  if (s.firstWall === undefined || s.lastWall === undefined || s.total < 2) throw new Error('the simulator logged fewer than two requests');
  return (s.total - 1) / ((s.lastWall - s.firstWall) / 1000);
}

/** Requests per second over the whole seconds after the ramp, leaving out the last (partial) one. */
function steadyRate(s: SimStats): number | undefined {
  const seconds = s.perSecond.slice(RAMP_SECONDS, -1);
  if (seconds.length < 3) return undefined;
  return round(seconds.reduce((n, [, count]) => n + count, 0) / seconds.length, 1);
}

// ---- run directly ---------------------------------------------------------------------------

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  // node dist/bench/latency.js [cases] [campaign] [memory]: only those parts (default all)
  const parts = process.argv.slice(2);
  const only = (part: string) => parts.length === 0 || parts.includes(part);
  const r = await benchLatency({
    ...(only('cases') ? {} : { cases: [] }),
    ...(only('campaign') ? {} : { campaign: null }),
    ...(only('memory') ? {} : { memoryContacts: 0 }),
  });
  for (const c of [...r.cases, ...(r.campaign ? [r.campaign] : [])]) {
    console.log(
      `${c.latencyMs} ms, ${c.perSecond}/s, ${c.contacts} contacts: auto ${c.auto.achievedPerSec}/s (${(c.auto.ratio * 100).toFixed(1)} %, steady ${c.auto.steadyPerSec ?? '–'}/s, max ${c.auto.maxPacedInOneSecond} let go / ${c.auto.maxInOneSecond} arrived in a second, ${c.auto.peakInFlight} in flight), ${REACHED_SHARE * 100} % ${rampText(c.auto)}` +
        (c.fixed64 ? `; fixed 64 ${c.fixed64.achievedPerSec}/s` : '') +
        (c.sized ? `; sized ${c.sized.concurrency} ${c.sized.achievedPerSec}/s (${(c.sized.ratio * 100).toFixed(1)} %), ${REACHED_SHARE * 100} % ${rampText(c.sized)}` : ''),
    );
  }
  if (r.memory) console.log(`1,000 in flight: peak RSS ${r.memory.peakRssMb} MB (${r.memory.peakInFlight} in flight, ${r.memory.achievedPerSec}/s)`);
}
