import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { AppError, prepare, runJob, type RunOutcome } from '../../src/app/index.js';
import { createFileStore } from '../../src/checkpoint/index.js';
import { userErrorExitCode } from '../../src/cli/exit.js';
import { startSimulator, type RunningSimulator, type SimChannel } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';

/** Two more numbers of the company beside the seed's 10 (wba) and 11 (whatsapp). */
const MORE_NUMBERS: SimChannel[] = [
  { id: 14, name: 'Sales 2 (WhatsApp Cloud)', type: 'wba', status: 1 },
  { id: 15, name: 'Sales 3 (WhatsApp Cloud)', type: 'wba', status: 1 },
];

let sim: RunningSimulator;
let c: Campaign | undefined;
const clients: ApiClient[] = [];

afterEach(async () => {
  for (const api of clients.splice(0)) await api.close();
  await sim?.close();
  await c?.cleanup();
  c = undefined;
});

function client(): ApiClient {
  const api = createApiClient({ baseUrl: sim.url, token: sim.token });
  clients.push(api);
  return api;
}

async function setup(job: Record<string, unknown>, rows = 6): Promise<Campaign> {
  sim ??= await startSimulator({ seed: 5, channels: MORE_NUMBERS });
  c = await campaign({ rows, job });
  return c;
}

async function refusal(jobFile: string): Promise<AppError> {
  const err = await prepare(jobFile, { api: client() }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

export async function runPool(camp: Campaign, command: 'run' | 'resume' = 'run'): Promise<RunOutcome> {
  const prepared = await prepare(camp.jobFile, { api: client() });
  return runJob(prepared, {
    store: createFileStore(camp.stateDir),
    api: client(),
    command,
    mode: { retryFailed: command === 'resume', retryInDoubt: false },
    owner: { pid: process.pid },
  });
}

describe('a pool of numbers in the job (channel_id as a list)', () => {
  it('refuses a pool mixing official and web-session numbers before anything is sent (exit 2), naming them', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const camp = await setup({ channel_id: [10, 12] });
    const err = await refusal(camp.jobFile);
    expect(err.message).toMatch(/mixes numbers of the official API \(10 \(wba.*\) with web-session numbers \(12 \(ww/);
    expect(userErrorExitCode(err)).toBe(2);
    expect(sim.state.counters.byEndpoint['POST /chat/conversations/start-whatsapp'] ?? 0).toBe(0);
  });

  it('refuses an unknown and an inactive number of a pool, naming each (exit 2)', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const camp = await setup({ channel_id: [10, 99, 13] });
    const err = await refusal(camp.jobFile);
    expect(err.message).toContain('channel_id 99 is not a channel of company 1');
    expect(err.message).toContain('channel_id 13: channel 13 (wba, Old number, inactive) is inactive');
    expect(userErrorExitCode(err)).toBe(2);
  });

  it('refuses a number listed twice, naming it (exit 2)', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const camp = await setup({ channel_id: [10, 14, 10] });
    const err = await prepare(camp.jobFile, { api: client() }).then(
      () => undefined,
      (e: unknown) => e as Error & { kind?: string },
    );
    expect(err?.message).toContain('channel_id: lists 10 more than once');
    expect(err && userErrorExitCode(err)).toBe(2);
  });

  it('accepts one id as before, and a pool of numbers of one kind (wba with whatsapp)', async () => {
    sim = await startSimulator({ seed: 5, channels: MORE_NUMBERS });
    const one = await prepare((await setup({ channel_id: 10 })).jobFile, { api: client() });
    expect(one.pool.map((ch) => ch.id)).toEqual([10]);
    await c?.cleanup();
    const pool = await prepare((await setup({ channel_id: [10, 11, 14] })).jobFile, { api: client() });
    expect(pool.pool.map((ch) => ch.id)).toEqual([10, 11, 14]);
    expect(pool.job.channels).toEqual([10, 11, 14]);
    expect(pool.channel.id).toBe(10);
  });
});
