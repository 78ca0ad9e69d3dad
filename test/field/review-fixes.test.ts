import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, errorFromResponse, type ApiClient } from '../../src/api/index.js';
import { jobStatus, prepare, runJob, runUntilDone } from '../../src/app/index.js';
import { createFileStore } from '../../src/checkpoint/backends.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

let sim: RunningSimulator;
let c: Campaign;
const clients: ApiClient[] = [];
afterEach(async () => {
  for (const api of clients.splice(0)) await api.close();
  await sim?.close();
  await c?.cleanup();
});

function client(): ApiClient {
  const api = createApiClient({ baseUrl: sim.url, token: sim.token });
  clients.push(api);
  return api;
}

const MODE = { retryFailed: false, retryInDoubt: false };
const RESUME = { retryFailed: true, retryInDoubt: false };

describe('what a review found', () => {
  it('never sends owed media to a contact put on the suppression list since its first message', async () => {
    sim = await startSimulator({ seed: 21 });
    c = await campaign({
      rows: 2,
      job: { message: { text: 'Oi {{name}}', media: { url: 'https://example.com/f.jpg', content_type: 'image' } } },
    });
    const store = createFileStore(c.stateDir);
    const windows = await store.openWindowStore();
    for (const phone of c.phones) {
      const inbound = sim.state.inbound(phone, 'oi, quero o cupom');
      windows.noteInbound({ clientId: String(inbound.client_id), phone, at: Date.now() - 60_000 });
    }
    await windows.flush();
    const real = client();
    const noMedia: ApiClient = {
      ...real,
      sendMessage: async () => {
        throw errorFromResponse(422, { success: false, message: 'media refused for now' }, {}, 'POST', '/chat/conversations/1/messages');
      },
    };
    const prepared = await prepare(c.jobFile, { api: real });
    const first = await runJob(prepared, { store, api: noMedia, command: 'run', mode: MODE, owner: { pid: process.pid } });
    expect(first.summary.afterSendFailed.bySteps).toEqual({ media: 2 });
    const [stopped, other] = c.phones as [string, string];
    await store.suppress([{ phone: stopped, reason: 'asked to stop', source: 'manual' }]);

    const resumed = await runJob(prepared, { store, api: real, command: 'resume', mode: RESUME, owner: { pid: process.pid } });
    expect(sim.state.messageCount(stopped)).toBe(1); // the first message only
    expect(sim.state.messageCount(other)).toBe(2); // the first message and the media
    expect(resumed.summary.afterSendFailed.bySteps).toEqual({ media: 1 });
    const row = (await readFile(resumed.files.report, 'utf8')).split('\n').find((l) => l.startsWith(stopped));
    expect(row).toMatch(/media: not sent, the phone is on the suppression list \(manual: asked to stop\)/);
  });

  it("keeps the suppression list where every job reads it: the account's store, whether --job names a job or not", async () => {
    sim = await startSimulator({ seed: 21 });
    c = await campaign({ rows: 1 });
    const r = await cli(['suppress', 'add', '+5511987654321'], { env: { OUTREACH_STATE_DIR: '' } });
    expect(r.code).toBe(0);
    const ok = await cli(['suppress', 'add', '+5511987654322', '--job', c.jobFile], { env: { OUTREACH_STATE_DIR: '' } });
    expect(ok.code).toBe(0);
    const account = createFileStore(path.join(process.env.XDG_STATE_HOME ?? '', 'outreach')).account(1);
    const list = await account.suppressions();
    expect(list.get('+5511987654321')?.source).toBe('manual');
    expect(list.get('+5511987654322')?.source).toBe('manual');
  });

  it('says in one sentence (exit 2) that a shared state file is unusable, before sending anything', async () => {
    sim = await startSimulator({ seed: 21 });
    c = await campaign({ rows: 2 });
    await mkdir(path.join(c.stateDir, 'suppressions.jsonl'), { recursive: true });
    const r = await cli(['run', c.jobFile, '--no-progress', '--state-dir', c.stateDir], { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/suppressions\.jsonl is a folder, not a state file/);
    expect(r.stderr).not.toMatch(/this is a bug/);
    expect(sim.state.counters.byEndpoint['POST /chat/conversations/start-whatsapp'] ?? 0).toBe(0);
  });

  it('ends run --wait when the only deferred contact left the list, instead of running again forever', async () => {
    sim = await startSimulator({ seed: 21 });
    c = await campaign({ rows: 2, job: { send_window: { from: '00:00:00', to: '00:00:01', timezone: 'UTC' } } });
    const store = createFileStore(c.stateDir);
    const prepared = await prepare(c.jobFile, { api: client() });
    const first = await runJob(prepared, { store, api: client(), command: 'run', mode: MODE, owner: { pid: process.pid } });
    expect(first.summary.byStatus.deferred).toBe(2);
    // Both rows leave the list; their deferrals stay in the state, due in the past for the next run's clock.
    const list = path.join(c.dir, 'contacts.csv');
    await writeFile(list, `${(await readFile(list, 'utf8')).split('\n')[0]}\n`);
    const later = Date.now() + 2 * 24 * 3_600_000;
    let sleeps = 0;
    const done = await runUntilDone(prepared, {
      store,
      api: client(),
      command: 'run',
      mode: MODE,
      owner: { pid: process.pid },
      clock: () => later,
      sleep: async () => void (sleeps += 1),
    });
    expect(done.runs).toBe(1);
    expect(sleeps).toBe(0);
  });

  it('counts a contact reconciled back to pending once, not twice', async () => {
    sim = await startSimulator({ seed: 21 });
    c = await campaign({ rows: 2 });
    const store = createFileStore(c.stateDir);
    const prepared = await prepare(c.jobFile, { api: client() });
    sim.state.setFaults({ dropRate: 1 });
    await runJob(prepared, { store, api: client(), command: 'run', mode: MODE, owner: { pid: process.pid } });
    sim.state.setFaults({ dropRate: 0 });
    const job = await store.openJob('cli-test', { pid: process.pid, startedAt: new Date().toISOString(), command: 'test' });
    for (const phone of c.phones) await job.record({ t: 'reconciled', phone, result: 'not_sent', at: new Date().toISOString() });
    await job.close();
    const status = await jobStatus(c.jobFile, { store });
    expect(status.summary.byStatus.pending).toBe(2);
    expect(status.summary.total).toBe(2);
  });
});
