import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { prepare, runJob, type Prepared, type RunJobOptions, type RunOutcome } from '../../src/app/index.js';
import { createFileStore, type StateStore } from '../../src/checkpoint/backends.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { parseCsv } from '../helpers/campaign.js';

export const HOUR = 3_600_000;

/** A valid Brazilian mobile for row i (list k keeps lists apart). */
export function phone(i: number, list = 0): string {
  return `+55119${String(60000000 + list * 1000 + i).padStart(8, '0')}`;
}

export interface Row {
  phone: string;
  consent?: string;
  tz?: string;
}

/** A simulator, a state folder, and jobs written over contact lists of the test's own. */
export interface Bench {
  sim: RunningSimulator;
  api: ApiClient;
  dir: string;
  stateDir: string;
  store: StateStore;
  /** Writes `<name>.csv` and `<name>.json` (a promo_bf template job, whose fields `job` overrides); returns the job file. */
  job(name: string, rows: readonly Row[], job?: Record<string, unknown>): Promise<string>;
  prepare(jobFile: string): Promise<Prepared>;
  run(prepared: Prepared, options?: Partial<RunJobOptions>): Promise<RunOutcome>;
  report(job: string): Promise<Array<Record<string, string>>>;
  /** Phones that got a start-whatsapp, each once. */
  started(): Set<string>;
  close(): Promise<void>;
}

export async function bench(): Promise<Bench> {
  const sim = await startSimulator({ seed: 12 });
  const api = createApiClient({ baseUrl: sim.url, token: sim.token });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-compliance-'));
  const stateDir = path.join(dir, 'state');
  const store = createFileStore(stateDir);
  return {
    sim,
    api,
    dir,
    stateDir,
    store,
    async job(name, rows, job = {}) {
      const lines = ['phone,name,coupon,consent,tz', ...rows.map((r, i) => `${r.phone},Ana ${i},BF${i},${r.consent ?? ''},${r.tz ?? ''}`)];
      await writeFile(path.join(dir, `${name}.csv`), `${lines.join('\n')}\n`);
      const file = path.join(dir, `${name}.json`);
      const body = {
        name,
        contacts: `${name}.csv`,
        company_id: 1,
        channel_id: 10,
        message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
        rate: { per_second: 500, concurrency: 4 },
        retry: { attempts: 1, backoff_ms: 1 },
        ...job,
      };
      await writeFile(file, JSON.stringify(body, null, 2));
      return file;
    },
    prepare: (jobFile) => prepare(jobFile, { api }),
    run: (prepared, options = {}) =>
      runJob(prepared, { store, api, command: 'run', mode: { retryFailed: false, retryInDoubt: false }, owner: { pid: process.pid }, ...options }),
    async report(job) {
      return parseCsv(await readFile(path.join(stateDir, job, 'report.csv'), 'utf8'));
    },
    started() {
      const phones = new Set<string>();
      for (const q of sim.state.requests) {
        if (q.method !== 'POST' || !q.path.endsWith('/start-whatsapp')) continue;
        const body = q.body as { phone?: string } | undefined;
        if (body?.phone) phones.add(body.phone);
      }
      return phones;
    },
    async close() {
      await api.close();
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The report rows by phone. */
export function byPhone(rows: Array<Record<string, string>>): Map<string, Record<string, string>> {
  return new Map(rows.map((r) => [r.phone ?? '', r]));
}
