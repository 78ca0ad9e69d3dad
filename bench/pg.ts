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
import { clientSettings, prepare, runJob, jobStatus, jobReport } from '../src/app/index.js';
import { importStateFolder } from '../src/app/store/import.js';
import { createFileStore, createPgStore, pgStoreImporter, type StateStore } from '../src/checkpoint/backends.js';
import { runIsolated } from './lib/isolated.js';
import { mostInWindow } from './lib/send-all.js';
import { createRateLimiter } from '../src/run/index.js';
import { benchScale, timed, type Timed } from './scale.js';
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
  /** Most requests the runner let go (out of limiter.pace(), right before each request) in any sliding 1,000 ms. */
  maxPacedInOneSecond: number;
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

export interface MillionOnPg {
  contacts: number;
  /** `store import` of the file bench's synthesised job (its journal, listing, and the rest). */
  importSeconds: number;
  /** Opening the job once (the whole journal folded, the snapshot written), as the run that wrote it would have left it. */
  openSeconds: number;
  status: Timed;
  report: Timed;
}

export interface BenchPgResult {
  file: StoreRate;
  postgres: StoreRate;
  ratio: number;
  budget: BudgetRace;
  million?: MillionOnPg;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

export async function benchPg(opts: { contacts?: number; million?: number } = {}): Promise<BenchPgResult> {
  const contacts = opts.contacts ?? 20_000;
  const dir = mkdtempSync(join(tmpdir(), 'outreach-bench-pg-'));
  let cluster: Cluster | undefined;
  try {
    log('pg: starting a throwaway PostgreSQL cluster …');
    cluster = await startCluster({ durable: true });
    const url = `${cluster.url}?schema=bench`;
    log(`pg: ${contacts.toLocaleString('en')} contacts at 1,000/s on the file store …`);
    const file = await rateRun('file', dir, contacts, (jobDir) => createFileStore(join(jobDir, 'state')));
    log(`  ${file.achievedPerSec}/s, at most ${file.maxPacedInOneSecond} let go (${file.maxInOneSecond} arrived) in a second, ${file.journalRowsPerSec} journal rows/s`);
    log(`pg: the same on PostgreSQL …`);
    const postgres = await rateRun('postgres', dir, contacts, (jobDir) => createPgStore(url, { filesDir: join(jobDir, 'state') }));
    log(`  ${postgres.achievedPerSec}/s, at most ${postgres.maxPacedInOneSecond} let go (${postgres.maxInOneSecond} arrived) in a second, ${postgres.journalRowsPerSec} journal rows/s`);
    log('pg: two holders racing for one messaging limit …');
    const budget = await budgetRace(`${cluster.url}?schema=budget`, dir);
    log(`  ${budget.granted} of ${budget.limit} granted in ${budget.seconds} s (${budget.takesPerSec} takes/s)`);
    const million = opts.million === 0 ? undefined : await millionOnPg(`${cluster.url}?schema=million`, opts.million ?? 1_000_000);
    return { file, postgres, ratio: round(postgres.achievedPerSec / file.achievedPerSec, 3), budget, ...(million && { million }) };
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
    const reader = createApiClient({ baseUrl: sim.url, token: sim.token });
    const prepared = await prepare(jobFile, { api: reader, baseUrl: sim.url }).finally(() => reader.close());
    // As `outreach run` makes it (cli/run-session.ts): as many connections as requests may be in flight, not the client's default 4.
    const api = createApiClient({ baseUrl: sim.url, token: sim.token, ...clientSettings(prepared.job) });
    // The job's own limiter, as runJob makes it; each request's departure is when pace() lets it go.
    const limiter = createRateLimiter({ perSecond: 1000 });
    const paced: number[] = [];
    const pace = limiter.pace.bind(limiter);
    limiter.pace = async () => {
      await pace();
      paced.push(performance.now());
    };
    const start = process.hrtime.bigint();
    const outcome = await runJob(prepared, { store, api, command: 'run', mode: { retryFailed: false, retryInDoubt: false }, owner: { pid: process.pid }, limiter });
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
      maxPacedInOneSecond: mostInWindow(paced, 1000),
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

/** The file bench's million-contact job, moved into PostgreSQL with `store import`, then `status` and `report` on it, each in a fresh process. */
async function millionOnPg(url: string, contacts: number): Promise<MillionOnPg> {
  log(`pg: a ${contacts.toLocaleString('en')}-contact job (the scale bench's files) …`);
  const files = await benchScale({ contacts, quick: true, keep: true, log: () => undefined });
  const dir = files.dir ?? '';
  try {
    const stateDir = join(dir, 'state');
    const jobFile = join(dir, 'job.json');
    const people = join(dir, 'people');
    let t = process.hrtime.bigint();
    const store = createPgStore(url, { filesDir: people });
    const outcome = await importStateFolder(pgStoreImporter(store, stateDir));
    const importSeconds = round(Number(process.hrtime.bigint() - t) / 1e9, 1);
    if (outcome.jobs.some((j) => j.kind === 'refused')) throw new Error('the import refused the job');
    log(`  imported in ${importSeconds} s`);
    t = process.hrtime.bigint();
    const opener = createPgStore(url, { filesDir: people });
    const opened = await opener.openJob('bench-million', { pid: process.pid, startedAt: new Date().toISOString(), command: 'bench' });
    await opened.close();
    await opener.close();
    const openSeconds = round(Number(process.hrtime.bigint() - t) / 1e9, 1);
    log(`  opened once (snapshot written) in ${openSeconds} s`);
    const status = await pgIsolated('timePgStatus', { url, jobFile, people });
    log(`  status ${status.seconds} s, ${status.peakRssMb} MB`);
    const report = await pgIsolated('timePgReport', { url, jobFile, people, out: join(dir, 'report.csv') });
    log(`  report ${report.seconds} s, ${report.peakRssMb} MB`);
    return { contacts, importSeconds, openSeconds, status, report };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function pgIsolated(name: string, arg: Record<string, string>): Promise<Timed> {
  const answer = await runIsolated(new URL('./pg.js', import.meta.url), name, arg);
  if (!answer.ok) throw new Error(`${name}: ${answer.error}`);
  return answer.value as Timed;
}

export function timePgStatus(arg: { url: string; jobFile: string; people: string }): Promise<Timed> {
  return timed(async () => {
    const store = createPgStore(arg.url, { filesDir: arg.people });
    const status = await jobStatus(arg.jobFile, { store });
    await store.close();
    if (status.listProblem) throw new Error(status.listProblem);
  });
}

export function timePgReport(arg: { url: string; jobFile: string; people: string; out: string }): Promise<Timed> {
  return timed(async () => {
    const store = createPgStore(arg.url, { filesDir: arg.people });
    await jobReport(arg.jobFile, { store, out: arg.out });
    await store.close();
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  // node dist/bench/pg.js [contacts] [million-contacts, 0 to leave out]
  const contacts = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  const million = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
  console.log(JSON.stringify(await benchPg({ ...(contacts !== undefined && { contacts }), ...(million !== undefined && { million }) }), null, 2));
}
