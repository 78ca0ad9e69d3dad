/**
 * The database store against the file store, in one run on one machine: the same 20,000-contact job
 * at `per_second: 1000` through the real `runJob` on each (goal: PostgreSQL ≥ 0.9 of the file store's
 * rate, never above 1,000 requests in any sliding second); journal rows written per second; budget
 * reservations taken by two holders on two connections racing for one limit (never above it); and
 * `status` and `report` of a 1,000,000-contact job on PostgreSQL (goals ≤ 3 s and ≤ 30 s), the job
 * being the file bench's synthesised one moved in with `store import`.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/pg.js [contacts]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiClient } from '../src/api/index.js';
import { prepare, runJob, jobStatus, jobReport } from '../src/app/index.js';
import { createFileStore, createPgStore, type StateStore } from '../src/checkpoint/index.js';
import { startCluster, type Cluster } from '../test/helpers/pg-cluster.js';
import { benchPhone } from './lib/fixtures.js';
import { round } from './lib/measure.js';
import { startSimProcess, type SimStats } from './lib/sim-process.js';

export interface StoreRate {
  store: 'file' | 'postgres';
  contacts: number;
  sent: number;
  seconds: number;
  /** Requests per second the simulator saw, first to last. */
  achievedPerSec: number;
  maxInOneSecond: number;
  /** Journal events written per second of the run (attempt + outcome per contact). */
  journalRowsPerSec: number;
}

export interface BudgetRace {
  limit: number;
  holders: number;
  chunk: number;
  granted: number;
  seconds: number;
  takesPerSec: number;
  placesPerSec: number;
}

export interface BenchPgResult {
  file: StoreRate;
  postgres: StoreRate;
  ratio: number;
  budget: BudgetRace;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

export async function benchPg(opts: { contacts?: number } = {}): Promise<BenchPgResult> {
  const contacts = opts.contacts ?? 20_000;
  const dir = mkdtempSync(join(tmpdir(), 'outreach-bench-pg-'));
  let cluster: Cluster | undefined;
  try {
    log('pg: starting a throwaway PostgreSQL cluster …');
    cluster = await startCluster({ durable: true });
    const url = `${cluster.url}?schema=bench`;
    log(`pg: ${contacts.toLocaleString('en')} contacts at 1,000/s on the file store …`);
    const file = await rateRun('file', dir, contacts, (jobDir) => createFileStore(join(jobDir, 'state')));
    log(`  ${file.achievedPerSec}/s, at most ${file.maxInOneSecond} in a second, ${file.journalRowsPerSec} journal rows/s`);
    log(`pg: the same on PostgreSQL …`);
    const postgres = await rateRun('postgres', dir, contacts, (jobDir) => createPgStore(url, { filesDir: join(jobDir, 'state') }));
    log(`  ${postgres.achievedPerSec}/s, at most ${postgres.maxInOneSecond} in a second, ${postgres.journalRowsPerSec} journal rows/s`);
    log('pg: two holders racing for one messaging limit …');
    const budget = await budgetRace(url, dir);
    log(`  ${budget.granted} of ${budget.limit} granted in ${budget.seconds} s (${budget.takesPerSec} takes/s)`);
    return { file, postgres, ratio: round(postgres.achievedPerSec / file.achievedPerSec, 3), budget };
  } finally {
    await cluster?.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function rateRun(kind: StoreRate['store'], root: string, contacts: number, open: (dir: string) => StateStore): Promise<StoreRate> {
  const dir = join(root, kind);
  const sim = await startSimProcess({ logRequests: true, seed: 1 });
  const store = open(dir);
  try {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    const lines = ['phone,name,coupon'];
    for (let i = 0; i < contacts; i++) lines.push(`${benchPhone(i)},Ana${i},BF${i}`);
    writeFileSync(join(dir, 'contacts.csv'), `${lines.join('\n')}\n`);
    const jobFile = join(dir, 'job.json');
    writeFileSync(
      jobFile,
      JSON.stringify({
        name: `bench-${kind}`,
        contacts: 'contacts.csv',
        company_id: 1,
        channel_id: 10,
        columns: { phone: 'phone', name: 'name' },
        message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
        rate: { per_second: 1000 },
        limits: { min_hours_between_messages: 0 },
      }),
    );
    const api = createApiClient({ baseUrl: sim.url, token: sim.token });
    const prepared = await prepare(jobFile, { api, baseUrl: sim.url });
    const start = process.hrtime.bigint();
    const outcome = await runJob(prepared, { store, api, command: 'run', mode: { retryFailed: false, retryInDoubt: false }, owner: { pid: process.pid } });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    await api.close();
    const s: SimStats = await sim.stats();
    const span = ((s.lastWall ?? 0) - (s.firstWall ?? 0)) / 1000;
    return {
      store: kind,
      contacts,
      sent: outcome.thisRun.sent,
      seconds: round(seconds, 2),
      achievedPerSec: round((s.total - 1) / span, 1),
      maxInOneSecond: s.maxInOneSecond,
      journalRowsPerSec: round((outcome.thisRun.sent * 2) / seconds),
    };
  } finally {
    await store.close();
    await sim.close();
  }
}

async function budgetRace(url: string, dir: string): Promise<BudgetRace> {
  const limit = 20_000;
  const chunk = 50;
  const stores = [createPgStore(url, { filesDir: dir }), createPgStore(url, { filesDir: dir })];
  try {
    const holders = await Promise.all(stores.map((s) => s.budgetHolder()));
    let granted = 0;
    let takes = 0;
    const now = Date.now();
    const start = process.hrtime.bigint();
    await Promise.all(
      holders.map(async (h) => {
        for (;;) {
          const got = await h.take(chunk, limit, now);
          takes += 1;
          granted += got;
          if (got === 0) return;
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    await Promise.all(holders.map((h) => h.release()));
    return { limit, holders: holders.length, chunk, granted, seconds: round(seconds, 3), takesPerSec: round(takes / seconds), placesPerSec: round(granted / seconds) };
  } finally {
    await Promise.all(stores.map((s) => s.close()));
  }
}

/** Status and report of a store's job, timed in this process (for the million-contact figures). */
export async function timeStatusReport(store: StateStore, jobFile: string, out: string): Promise<{ statusSeconds: number; reportSeconds: number }> {
  let t = process.hrtime.bigint();
  await jobStatus(jobFile, { store });
  const statusSeconds = Number(process.hrtime.bigint() - t) / 1e9;
  t = process.hrtime.bigint();
  await jobReport(jobFile, { store, out });
  return { statusSeconds: round(statusSeconds, 2), reportSeconds: round(Number(process.hrtime.bigint() - t) / 1e9, 2) };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const contacts = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  console.log(JSON.stringify(await benchPg(contacts === undefined ? {} : { contacts }), null, 2));
}
