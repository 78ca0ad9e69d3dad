import { afterEach } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { prepare, runJob, type Prepared, type RunJobOptions, type RunOutcome } from '../../src/app/index.js';
import { createFileStore, type ContactState, type StateStore } from '../../src/checkpoint/backends.js';
import { startSimulator, type RunningSimulator, type SimFaults } from '../../src/sim/index.js';
import type { RequestLogEntry } from '../../src/sim/types.js';
import { campaign, type Campaign } from '../helpers/campaign.js';

export const RUN = { retryFailed: false, retryInDoubt: false } as const;
export const RESUME = { retryFailed: true, retryInDoubt: false } as const;

/** A campaign over a contacts.csv of `rows`, the simulator, its client and the file store: `runJob` in this process. */
export interface Provided {
  campaign: Campaign;
  sim: RunningSimulator;
  api: ApiClient;
  store: StateStore;
  prepared: Prepared;
  phones: string[];
  run(options?: Partial<RunJobOptions>): Promise<RunOutcome>;
  /** The job's contact states as the store replays them. */
  states(): Promise<ReadonlyMap<string, ContactState>>;
  /** The send requests (start-whatsapp, wba-send-template, messages) the simulator received for this phone. */
  sendsTo(phone: string): RequestLogEntry[];
  /** Every send request the simulator received, in arrival order. */
  sends(): RequestLogEntry[];
}

const open: Provided[] = [];
afterEach(async () => {
  for (const p of open.splice(0)) {
    await p.api.close();
    await p.sim.close();
    await p.campaign.cleanup();
  }
});

const SEND = /\/(start-whatsapp|wba-send-template|messages)$/;

export async function provided(options: { rows: number; job?: Record<string, unknown>; faults?: SimFaults } = { rows: 10 }): Promise<Provided> {
  const c = await campaign({ rows: options.rows, job: { retry: { attempts: 3, backoff_ms: 1 }, ...options.job } });
  const sim = await startSimulator({ seed: 13, ...(options.faults && { faults: options.faults }) });
  const api = createApiClient({ baseUrl: sim.url, token: sim.token, connections: 8 });
  const store = createFileStore(c.stateDir);
  const prepared = await prepare(c.jobFile, { api });
  const sends = () => sim.state.requests.filter((r) => r.method === 'POST' && SEND.test(r.path)).sort((a, b) => a.wall - b.wall);
  const p: Provided = {
    campaign: c,
    sim,
    api,
    store,
    prepared,
    phones: c.phones,
    run: (extra = {}) => runJob(prepared, { store, api, command: 'run', mode: RUN, owner: { pid: process.pid }, ...extra }),
    async states() {
      const view = await store.readJob(prepared.job.name);
      return view?.states ?? new Map();
    },
    sends,
    sendsTo(phone) {
      const client = sim.state.clientByPhone(phone);
      const conversations = new Set(client ? [...sim.state.conversations.values()].filter((v) => v.clientId === client.id).map((v) => String(v.id)) : []);
      return sends().filter((r) => {
        if (r.path.endsWith('/start-whatsapp')) return (r.body as { phone?: string } | undefined)?.phone === phone;
        const id = /\/chat\/conversations\/(\d+)\//.exec(r.path)?.[1];
        return id !== undefined && conversations.has(id);
      });
    },
  };
  open.push(p);
  return p;
}
