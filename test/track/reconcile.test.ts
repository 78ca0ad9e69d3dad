import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { prepare, reconcileJob, runJob } from '../../src/app/index.js';
import { createFileStore, type ContactState } from '../../src/checkpoint/backends.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { parse } from 'csv-parse/sync';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

let sim: RunningSimulator;
let c: Campaign;
let api: ApiClient | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
  await sim?.close();
  await c?.cleanup();
});

function env() {
  return { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } };
}

/**
 * A run whose every send gets no answer (the connection is cut): with `processed`, the platform did
 * the work first, so the messages exist. The job is checked against the platform before the cuts begin.
 */
async function runInDoubt(options: { rows: number; processed: boolean; job?: Record<string, unknown> }) {
  sim = await startSimulator({ seed: 4 });
  c = await campaign({ rows: options.rows, ...(options.job && { job: options.job }) });
  const client = createApiClient({ baseUrl: sim.url, token: sim.token });
  try {
    const prepared = await prepare(c.jobFile, { api: client });
    sim.state.setFaults({ dropRate: 1, dropAfterProcessing: options.processed });
    const outcome = await runJob(prepared, { store: createFileStore(c.stateDir), api: client, command: 'run', mode: { retryFailed: false, retryInDoubt: false }, owner: { pid: process.pid } });
    expect(outcome.summary.byStatus.in_doubt).toBe(options.rows);
  } finally {
    sim.state.setFaults({ dropRate: 0, dropAfterProcessing: false });
    await client.close();
  }
}

async function report(): Promise<Array<Record<string, string>>> {
  return parse(await readFile(path.join(c.stateDir, 'cli-test', 'report.csv'), 'utf8'), { columns: true });
}

async function states(): Promise<Map<string, ContactState>> {
  const view = await createFileStore(c.stateDir).readJob('cli-test');
  return new Map(view?.states ?? []);
}

describe('outreach reconcile', () => {
  it('makes a contact whose message is on the platform sent, with the ids of that message (source reconciled)', async () => {
    await runInDoubt({ rows: 4, processed: true });
    expect([...(await states()).values()].every((s) => s.status === 'in_doubt')).toBe(true);

    const r = await cli(['reconcile', c.jobFile], env());
    expect(r.stdout).toMatch(/reconcile: 4 in doubt → 4 found sent, 0 pending/);
    expect(r.code).toBe(0);
    for (const phone of c.phones) {
      const s = (await states()).get(phone);
      const client = sim.state.clientByPhone(phone)!;
      const conversation = [...sim.state.conversations.values()].find((x) => x.clientId === client.id)!;
      expect(s).toMatchObject({ status: 'sent', source: 'reconciled', conversationId: String(conversation.id), clientId: String(client.id), messageId: String(conversation.messageIds[0]) });
    }
    const rows = await report();
    expect(rows.map((x) => x.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
    const show = await cli(['show', c.jobFile, c.phones[0]!], env());
    expect(show.stdout).toMatch(/sent \(template, found on the platform by reconcile\)/);
    expect(show.stdout).toMatch(/reconcile: found message \d+ in conversation \d+/);
  });

  it('finds a free-text message by its filled text', async () => {
    await runInDoubt({ rows: 2, processed: true, job: { channel_id: 12, message: { text: 'Oi {{name}}, cupom {{coupon}}' } } });
    const outcome = await reconcileJob(c.jobFile, { store: createFileStore(c.stateDir), api: (api = createApiClient({ baseUrl: sim.url, token: sim.token })), owner: { pid: process.pid } });
    expect(outcome).toMatchObject({ inDoubt: 2, sent: 2, pending: 0, unresolved: [], notDone: 0 });
  });

  it('keeps a contact with no message in doubt while its attempt is younger than the settling delay, saying why (exit 1)', async () => {
    await runInDoubt({ rows: 2, processed: false });
    const r = await cli(['reconcile', c.jobFile], env());
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/2 still in doubt/);
    expect(r.stdout).toMatch(/no message yet, but the attempt is only \d+ s old; run reconcile again after 5 min \(--settle-minutes\)/);
    expect((await states()).get(c.phones[0]!)).toMatchObject({ status: 'in_doubt', unresolved: expect.stringMatching(/only \d+ s old/) });
    const rows = await report();
    expect(rows[0]!.error).toMatch(/; reconcile: no message yet/);
  });

  it('makes a contact with no message pending once the attempt is older than the delay, and resume sends it one first message', async () => {
    await runInDoubt({ rows: 3, processed: false });
    const r = await cli(['reconcile', c.jobFile, '--settle-minutes', '0'], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/0 found sent, 3 pending/);
    expect(r.stdout).toMatch(/next: `outreach resume` sends the pending ones/);
    expect((await states()).get(c.phones[0]!)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await cli(['resume', c.jobFile, '--no-progress'], env())).code).toBe(0);
    for (const phone of c.phones) {
      expect(sim.state.startWhatsappCount(phone)).toBe(1);
      expect(sim.state.messageCount(phone)).toBe(1);
    }
  });

  it('does not count another message of the contact’s conversation (an agent’s, or the client’s) as the campaign’s, and leaves such a contact in doubt', async () => {
    await runInDoubt({ rows: 1, processed: false });
    const phone = c.phones[0]!;
    const inbound = sim.state.inbound(phone, 'Oi, Ana 0 aqui. Meu cupom BF0?');
    api = createApiClient({ baseUrl: sim.url, token: sim.token });
    await api.sendMessage(inbound.conversation_id, { content: 'Olá Ana 0! Posso ajudar? BF0', content_type: 'text' });
    const outcome = await reconcileJob(c.jobFile, { store: createFileStore(c.stateDir), api, owner: { pid: process.pid }, settleMinutes: 0 });
    expect(outcome).toMatchObject({ sent: 0, pending: 0 });
    expect(outcome.unresolved).toEqual([{ phone, reason: expect.stringMatching(/has a message from the company after the attempt that is not this campaign's/) }]);
  });

  it('never turns a delivered message into pending when the list changed since (a coupon fixed): the contact stays in doubt, and resume sends nothing', async () => {
    await runInDoubt({ rows: 2, processed: true });
    const file = path.join(c.dir, 'contacts.csv');
    await writeFile(file, (await readFile(file, 'utf8')).replace(';BF0', ';BF0-FIXED'));
    api = createApiClient({ baseUrl: sim.url, token: sim.token });
    const outcome = await reconcileJob(c.jobFile, { store: createFileStore(c.stateDir), api, owner: { pid: process.pid }, settleMinutes: 0 });
    expect(outcome).toMatchObject({ sent: 1, pending: 0 });
    expect(outcome.unresolved.map((u) => u.phone)).toEqual([c.phones[0]]);
    expect((await cli(['resume', c.jobFile, '--no-progress'], env())).code).toBe(1);
    for (const phone of c.phones) expect(sim.state.startWhatsappCount(phone)).toBe(1);
  });

  it('keeps contacts in doubt, with the reason, when the platform cannot be read', async () => {
    await runInDoubt({ rows: 2, processed: true });
    const real = createApiClient({ baseUrl: sim.url, token: sim.token });
    api = real;
    const broken: ApiClient = { ...real, listConversations: () => Promise.reject(new Error('503 maintenance')) };
    const outcome = await reconcileJob(c.jobFile, { store: createFileStore(c.stateDir), api: broken, owner: { pid: process.pid }, settleMinutes: 0 });
    expect(outcome.unresolved).toEqual(c.phones.map((phone) => ({ phone, reason: 'the platform could not be read (503 maintenance); run reconcile again' })));
    expect(outcome.notDone).toBe(2);
    expect((await states()).get(c.phones[0]!)?.status).toBe('in_doubt');
  });

  it('keeps a contact in doubt when its row left the list (the message to look for is unknown)', async () => {
    await runInDoubt({ rows: 2, processed: false });
    const file = path.join(c.dir, 'contacts.csv');
    const lines = (await readFile(file, 'utf8')).split('\n');
    await writeFile(file, [lines[0], lines[2], ''].join('\n')); // only the second contact stays
    const outcome = await reconcileJob(c.jobFile, { store: createFileStore(c.stateDir), api: (api = createApiClient({ baseUrl: sim.url, token: sim.token })), owner: { pid: process.pid }, settleMinutes: 0 });
    expect(outcome.unresolved).toEqual([{ phone: c.phones[0], reason: 'not in the contact list any more, so the message to look for is unknown' }]);
    expect(outcome.pending).toBe(1);
  });

  it('says nothing was in doubt without asking the platform, and refuses a job never run', async () => {
    sim = await startSimulator({ seed: 4 });
    c = await campaign({ rows: 2 });
    const never = await cli(['reconcile', c.jobFile], env());
    expect(never.code).toBe(2);
    expect(never.stderr).toMatch(/has no state in .*: run `outreach run` first/);
    expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(0);
    const before = sim.state.counters.total;
    const r = await cli(['reconcile', c.jobFile, '--json'], env());
    expect(JSON.parse(r.stdout)).toMatchObject({ inDoubt: 0, requests: 0, notDone: 0 });
    expect(sim.state.counters.total).toBe(before);
  });

  it('stops with exit 3 when the token is refused, and rejects a bad --settle-minutes', async () => {
    await runInDoubt({ rows: 1, processed: true });
    const refused = await cli(['reconcile', c.jobFile], { env: { ...env().env, OUTREACH_TOKEN: 'wrong' } });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/the token was refused/);
    const bad = await cli(['reconcile', c.jobFile, '--settle-minutes', 'soon'], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--settle-minutes: "soon" is not a number of 0 or more/);
  });
});

describe('outreach reconcile against a platform that cannot be reached', () => {
  it('stops with exit 3 and one sentence naming the address, leaving the contacts in doubt', async () => {
    await runInDoubt({ rows: 1, processed: true });
    const url = sim.url;
    await sim.close();
    const r = await cli(['reconcile', c.jobFile], { env: { OUTREACH_BASE_URL: url, OUTREACH_TOKEN: 'sim-token', OUTREACH_STATE_DIR: c.stateDir } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/cannot reach the platform at http:\/\/127\.0\.0\.1:\d+/);
    expect((await states()).get(c.phones[0]!)?.status).toBe('in_doubt');
  });
});
