/**
 * A pool of numbers against one number (issue 22): the same list sent by `runJob` in-process against the
 * simulator, once from one number at 300/s and once from a pool of three at 300/s each. Reported: the accepted
 * first messages per second of each, their ratio (goal ≥ 2.8), and the most first messages any one number sent in
 * any one second: as the run let them go (the moment the client is called; goal: never above 300) and as the
 * simulator saw them arrive (information: arrivals bunch when a process of the two shared cores is not scheduled).
 *
 * The simulator runs in a process of its own (bench/lib/sim-process.ts), as the platform is remote: in the run's
 * own event loop it read requests late and in bunches whenever the run was busy, so its arrival times said more
 * about that loop than about the run's pacing, and it took the run's CPU.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient, type ApiClient } from '../src/api/index.js';
import { clientSettings, prepare, runJob } from '../src/app/index.js';
import { createFileStore } from '../src/checkpoint/backends.js';
import { startSimProcess } from './lib/sim-process.js';

export const POOL_RATE = 300;
const CONTACTS = 12_000;

export interface PoolCase {
  numbers: number;
  perSecond: number;
  sent: number;
  seconds: number;
  /** Accepted first messages per second, first to last. */
  rate: number;
  /** The most first messages one number sent in any window of one second, as the simulator saw them arrive. */
  maxPerNumberSecond: number;
  /** The same as the run let them go: the most calls of start-whatsapp for one number in any 1,000 ms. */
  maxPerNumberSecondLeaving: number;
}

/** The client, noting per number the moment each start-whatsapp leaves (the call, right after the limiter let it go). */
function watched(api: ApiClient, leaving: Map<number, number[]>): ApiClient {
  return new Proxy(api, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (key !== 'startWhatsapp' || typeof value !== 'function') return value;
      return (body: { channel_id: number }, ...rest: unknown[]) => {
        const times = leaving.get(body.channel_id) ?? [];
        times.push(performance.now());
        leaving.set(body.channel_id, times);
        return (value as (...args: unknown[]) => unknown).call(target, body, ...rest);
      };
    },
  });
}

/** The most of sorted times in any half-open window [t, t + 1000 ms). */
function mostInOneSecond(times: readonly number[]): number {
  let most = 0;
  let from = 0;
  for (let to = 0; to < times.length; to++) {
    while ((times[to] ?? 0) - (times[from] ?? 0) >= 1000) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

export interface BenchPoolResult {
  single: PoolCase;
  pool: PoolCase;
  ratio: number;
}

async function oneCase(channels: number[]): Promise<PoolCase> {
  const sim = await startSimProcess({
    seed: 7,
    faults: { latencyMs: 40, latencyJitterMs: 10 },
    channels: [
      { id: 14, name: 'Sales 2', type: 'wba', status: 1 },
      { id: 15, name: 'Sales 3', type: 'wba', status: 1 },
    ],
  });
  const dir = await mkdtemp(join(tmpdir(), 'outreach-bench-pool-'));
  // As `outreach run` makes it (cli/run-session.ts): as many connections as requests may be in flight. The
  // client's default of 4 connections held both cases at 4 ÷ the answer time (about 95/s at 40 ms).
  let api = createApiClient({ baseUrl: sim.url, token: sim.token });
  try {
    const lines = ['phone,name,coupon'];
    for (let i = 0; i < CONTACTS; i++) lines.push(`+55119${String(70_000_000 + i)},Ana ${i},BF${i}`);
    await writeFile(join(dir, 'contacts.csv'), `${lines.join('\n')}\n`);
    const job = {
      name: `pool-${channels.length}`,
      contacts: 'contacts.csv',
      company_id: 1,
      channel_id: channels.length === 1 ? channels[0] : channels,
      message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
      rate: { per_second: POOL_RATE },
    };
    await writeFile(join(dir, 'job.json'), JSON.stringify(job));
    const prepared = await prepare(join(dir, 'job.json'), { api });
    await api.close();
    api = createApiClient({ baseUrl: sim.url, token: sim.token, ...clientSettings(prepared.job) });
    const leaving = new Map<number, number[]>();
    await runJob(prepared, { store: createFileStore(join(dir, 'state')), api: watched(api, leaving), command: 'run', mode: { retryFailed: false, retryInDoubt: false }, owner: { pid: process.pid } });
    const starts = (await sim.stats()).startsByChannel.filter((c) => channels.includes(c.channelId));
    const sent = starts.reduce((n, c) => n + c.accepted, 0);
    const seconds = Math.max(0.001, (Math.max(...starts.map((c) => c.lastWall)) - Math.min(...starts.map((c) => c.firstWall))) / 1000);
    const maxPerNumberSecond = Math.max(0, ...starts.map((c) => c.maxInOneSecond));
    const maxPerNumberSecondLeaving = Math.max(0, ...[...leaving.values()].map(mostInOneSecond));
    return { numbers: channels.length, perSecond: POOL_RATE, sent, seconds, rate: sent / seconds, maxPerNumberSecond, maxPerNumberSecondLeaving };
  } finally {
    await api.close();
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchPool(): Promise<BenchPoolResult> {
  const single = await oneCase([10]);
  const pool = await oneCase([10, 14, 15]);
  return { single, pool, ratio: pool.rate / single.rate };
}
