/**
 * A pool of numbers against one number (issue 22): the same list sent by `runJob` in-process against the
 * simulator, once from one number at 300/s and once from a pool of three at 300/s each. Reported: the accepted
 * first messages per second of each, their ratio (goal ≥ 2.8), and the most first messages any one number sent in
 * any one second as the simulator saw them arrive (goal: never above 300).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiClient } from '../src/api/index.js';
import { clientSettings, prepare, runJob } from '../src/app/index.js';
import { createFileStore } from '../src/checkpoint/index.js';
import { startSimulator } from '../src/sim/index.js';

export const POOL_RATE = 300;
const CONTACTS = 6_000;
const START = 'POST /chat/conversations/start-whatsapp';

export interface PoolCase {
  numbers: number;
  perSecond: number;
  sent: number;
  seconds: number;
  /** Accepted first messages per second, first to last. */
  rate: number;
  /** The most first messages one number sent in any window of one second (at the simulator). */
  maxPerNumberSecond: number;
}

export interface BenchPoolResult {
  single: PoolCase;
  pool: PoolCase;
  ratio: number;
}

async function oneCase(channels: number[]): Promise<PoolCase> {
  const sim = await startSimulator({
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
    await runJob(prepared, { store: createFileStore(join(dir, 'state')), api, command: 'run', mode: { retryFailed: false, retryInDoubt: false }, owner: { pid: process.pid } });
    const starts = sim.state.requests.filter((r) => r.endpoint === START && r.status === 200);
    const walls = starts.map((r) => r.wall);
    const seconds = Math.max(0.001, (Math.max(...walls) - Math.min(...walls)) / 1000);
    let maxPerNumberSecond = 0;
    for (const id of channels) {
      const times = starts.filter((r) => (r.body as { channel_id: number }).channel_id === id).map((r) => r.wall).sort((a, b) => a - b);
      for (let i = 0, j = 0; j < times.length; j++) {
        while ((times[j] as number) - (times[i] as number) >= 1000) i++;
        maxPerNumberSecond = Math.max(maxPerNumberSecond, j - i + 1);
      }
    }
    return { numbers: channels.length, perSecond: POOL_RATE, sent: starts.length, seconds, rate: starts.length / seconds, maxPerNumberSecond };
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
