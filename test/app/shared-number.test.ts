/**
 * Several processes sending from one number share its rate through the store's registry of senders:
 * two runs of two jobs on one store (two store objects, as two processes would open it), both from
 * number 10 at 20/s, against one simulator.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { prepare, runJob } from '../../src/app/index.js';
import { createFileStore, createPgStore, type StateStore } from '../../src/checkpoint/backends.js';
import { outcomeExitCode } from '../../src/cli/exit.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { maxInWindow } from '../../src/sim/request-log.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { watchStarts, type Leaving } from '../helpers/leaving.js';
import { schemaUrl } from '../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');
const backends = [{ name: 'one state folder', pg: false }, ...(pgUrl ? [{ name: 'PostgreSQL', pg: true }] : [])];
const START = 'POST /chat/conversations/start-whatsapp';
const RATE = 20;
const CONTACTS = 70;

let sim: RunningSimulator | undefined;
const opened: Array<{ close(): Promise<void> }> = [];
const camps: Campaign[] = [];

afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
  for (const c of camps.splice(0)) await c.cleanup();
  await sim?.close();
  sim = undefined;
});

function client(s: RunningSimulator): ApiClient {
  const api = createApiClient({ baseUrl: s.url, token: s.token });
  opened.push(api);
  return api;
}

const leaving: Leaving[] = [];
const watched = (api: ApiClient): ApiClient => watchStarts(api, leaving);

describe.each(backends)('two processes sending from one number, on $name', ({ pg }) => {
  it('never together above the number\'s rate in any second, each taking a share while both run', async () => {
    const s = (sim = await startSimulator({ seed: 7 }));
    leaving.length = 0;
    const job = { channel_id: 10, rate: { per_second: RATE, concurrency: 4 } };
    const a = await campaign({ rows: CONTACTS, job: { ...job, name: 'share-a' } });
    const b = await campaign({ rows: CONTACTS, firstRow: CONTACTS, job: { ...job, name: 'share-b' } });
    camps.push(a, b);
    const url = pg && pgUrl ? schemaUrl(pgUrl) : undefined;
    const open = (): StateStore => {
      const store = url ? createPgStore(url, { filesDir: a.stateDir }) : createFileStore(a.stateDir);
      opened.push(store);
      return store;
    };
    const run = async (c: Campaign) =>
      runJob(await prepare(c.jobFile, { api: client(s) }), {
        store: open(),
        api: watched(client(s)),
        command: 'run',
        mode: { retryFailed: false, retryInDoubt: false },
        owner: { pid: process.pid },
      });
    const outcomes = await Promise.all([run(a), run(b)]);
    expect(outcomes.map(outcomeExitCode)).toEqual([0, 0]);

    const starts = s.state.requests
      .filter((r) => r.endpoint === START && r.status === 200)
      .map((r) => ({ phone: (r.body as { phone: string; channel_id: number }).phone, channel: (r.body as { channel_id: number }).channel_id, wall: r.wall }));
    expect(starts).toHaveLength(2 * CONTACTS);
    expect(new Set(starts.map((x) => x.channel))).toEqual(new Set([10]));
    const walls = (phones: string[]) => starts.filter((x) => phones.includes(x.phone)).map((x) => x.wall);
    const [ofA, ofB] = [walls(a.phones), walls(b.phones)];
    // Both sent while the other did: each took a share, neither waited for the other to end.
    expect(Math.min(...ofB)).toBeLessThan(Math.max(...ofA));
    expect(Math.min(...ofA)).toBeLessThan(Math.max(...ofB));
    // Every request of the number, as the two runs sent them: never more than its rate in any second. (Measured as
    // they leave, not as the simulator records their arrival: on a loaded machine the way through loopback and the
    // simulator's parsing can bunch two requests sent 1,020 ms apart into one second.)
    const sentAt = leaving.filter((l) => l.channel === 10).map((l) => l.at).sort((x, y) => x - y);
    expect(sentAt).toHaveLength(2 * CONTACTS);
    expect(maxInWindow(sentAt, 1000)).toBeLessThanOrEqual(RATE);
  });
});
