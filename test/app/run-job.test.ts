import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { AppError, jobReport, jobStatus, prepare, runJob, type RunOutcome } from '../../src/app/index.js';
import { createFileStore, type JobStore, type Ledger, type StateStore } from '../../src/checkpoint/index.js';
import { globalStatePaths, jobStatePaths } from '../../src/checkpoint/file/index.js';
import { unlimitedLimiter } from '../../src/run/index.js';
import { outcomeExitCode, userErrorExitCode } from '../../src/cli/exit.js';
import { startSimulator, type RunningSimulator, type SimFaults } from '../../src/sim/index.js';
import { campaign, phoneOf, type Campaign } from '../helpers/campaign.js';

let sim: RunningSimulator;
let c: Campaign;
const clients: ApiClient[] = [];

afterEach(async () => {
  for (const api of clients.splice(0)) await api.close();
  await sim?.close();
  await c?.cleanup();
});

async function setup(opts: Parameters<typeof campaign>[0], faults: SimFaults = {}) {
  sim = await startSimulator({ faults, seed: 5 });
  c = await campaign(opts);
}

function client(): ApiClient {
  const api = createApiClient({ baseUrl: sim.url, token: sim.token });
  clients.push(api);
  return api;
}

async function run(
  options: { command?: 'run' | 'resume'; api?: ApiClient; signal?: AbortSignal; forceChanged?: boolean; faults?: SimFaults } = {},
): Promise<RunOutcome> {
  const prepared = await prepare(c.jobFile, { api: client() });
  if (options.faults) sim.state.setFaults(options.faults);
  const command = options.command ?? 'run';
  return runJob(prepared, {
    store: createFileStore(c.stateDir),
    api: options.api ?? client(),
    command,
    mode: { retryFailed: command === 'resume', retryInDoubt: false },
    owner: { pid: process.pid },
    ...(options.signal && { signal: options.signal }),
    ...(options.forceChanged && { forceChanged: true }),
  });
}

describe('runJob and the exit code of each outcome', () => {
  it('exits 0 when every contact is sent, and the report says so', async () => {
    await setup({ rows: 12 });
    const outcome = await run();
    expect(outcome.summary.byStatus).toMatchObject({ sent: 12, failed: 0, in_doubt: 0, pending: 0 });
    expect(outcome.notDone).toBe(0);
    expect(outcomeExitCode(outcome)).toBe(0);
    for (const phone of c.phones) expect(sim.state.startWhatsappCount(phone)).toBe(1);
    const report = await readFile(outcome.files.report, 'utf8');
    expect(report.trimEnd().split('\n')).toHaveLength(13);
  });

  it('exits 1 when some contacts failed', async () => {
    await setup({ rows: 6, job: { channel_id: 12, message: { text: 'Oi {{name}}' }, retry: { attempts: 0, backoff_ms: 1 } } }, { wwDown: true });
    const outcome = await run();
    expect(outcome.summary.byStatus.failed).toBe(6);
    expect(outcome.stopped).toBeUndefined();
    expect(outcomeExitCode(outcome)).toBe(1);
  });

  it('exits 1 when the only contacts not done are in doubt', async () => {
    await setup({ rows: 4 });
    const outcome = await run({ faults: { dropRate: 1, dropAfterProcessing: true } });
    expect(outcome.summary.byStatus).toMatchObject({ in_doubt: 4, failed: 0, pending: 0, sent: 0 });
    expect(outcome.stopped).toBeUndefined();
    expect(outcomeExitCode(outcome)).toBe(1);
  });

  it('exits 1 when the only contacts not done are pending (rows added to the list after the run)', async () => {
    await setup({ rows: 3 });
    expect(outcomeExitCode(await run())).toBe(0);
    const list = path.join(c.dir, 'contacts.csv');
    await writeFile(list, `${await readFile(list, 'utf8')}+55 11 97777-0001;Late;BF9\n`);
    const status = await jobStatus(c.jobFile, { store: createFileStore(c.stateDir) });
    expect(status.summary.byStatus).toMatchObject({ sent: 3, pending: 1, failed: 0, in_doubt: 0 });
    expect(outcomeExitCode(status)).toBe(1);
  });

  it('exits 2, sending nothing, when the job changed since its state started', async () => {
    await setup({ rows: 2 });
    await run();
    const job = JSON.parse(await readFile(c.jobFile, 'utf8')) as { message: { template: { variables: Record<string, string> } } };
    job.message.template.variables['2'] = 'OTHER-{{coupon}}';
    await writeFile(c.jobFile, JSON.stringify(job));
    const before = sim.state.counters.total;
    const err = await run().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toMatch(/what it sends, or where, changed since this job's checkpoint started .*--force-changed/);
    // Renaming the job is no way to go on: the contacts already sent would get a second message.
    expect((err as AppError).message).not.toMatch(/new (job )?name|another name/);
    expect(userErrorExitCode(err as AppError)).toBe(2);
    expect(sim.state.counters.total - before).toBe(2); // the preflight's channels and templates, nothing sent
  });

  it('continues the job from another job file of the same name and message, sending nobody again, and says where it was started', async () => {
    await setup({ rows: 2 });
    await run();
    const other = path.join(path.dirname(c.jobFile), 'other-job.json');
    await writeFile(other, await readFile(c.jobFile, 'utf8'));
    const before = sim.state.counters.byEndpoint['POST /chat/conversations/start-whatsapp'] ?? 0;
    const outcome = await runJob(await prepare(other, { api: client() }), {
      store: createFileStore(c.stateDir),
      api: client(),
      command: 'run',
      mode: { retryFailed: false, retryInDoubt: false },
      owner: { pid: process.pid, host: 'box-b' },
    });
    expect(outcome.continuedFrom).toEqual({ file: c.jobFile });
    expect(outcome.thisRun).toMatchObject({ sent: 0, alreadyDone: 2 });
    expect(outcomeExitCode(outcome)).toBe(0);
    expect((sim.state.counters.byEndpoint['POST /chat/conversations/start-whatsapp'] ?? 0) - before).toBe(0);
  });

  it('exits 2, sending nothing, when another job file of the same name sends another message, naming both files', async () => {
    await setup({ rows: 2 });
    await run();
    const other = path.join(path.dirname(c.jobFile), 'other-job.json');
    const body = JSON.parse(await readFile(c.jobFile, 'utf8')) as Record<string, unknown>;
    await writeFile(other, JSON.stringify({ ...body, message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': 'OTHER' } } } }));
    const before = sim.state.counters.total;
    const err = await runJob(await prepare(other, { api: client() }), {
      store: createFileStore(c.stateDir),
      api: client(),
      command: 'run',
      mode: { retryFailed: false, retryInDoubt: false },
      owner: { pid: process.pid },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toMatch(/job "cli-test" was started from .*job\.json, and .*other-job\.json sends another message under the same name/);
    expect(userErrorExitCode(err as AppError)).toBe(2);
    expect(sim.state.counters.total - before).toBe(2); // the preflight's channels and templates, nothing sent
  });

  it('exits 3 when the run stops early (the token is refused), leaving the rest pending', async () => {
    await setup({ rows: 5 });
    const outcome = await run({ api: createApiClient({ baseUrl: sim.url, token: 'not-the-token' }) });
    expect(outcome.stopped?.reason).toBe('auth');
    expect(outcome.stopped?.message).toMatch(/the token was refused/);
    expect(outcomeExitCode(outcome)).toBe(3);
    expect(outcome.notDone).toBe(5);
    expect(outcome.summary.byStatus.sent).toBe(0);
  });

  it('exits 3 when it is interrupted before the end of the list', async () => {
    await setup({ rows: 5 });
    const stop = new AbortController();
    stop.abort(new Error('SIGTERM'));
    const outcome = await run({ signal: stop.signal });
    expect(outcome.stopped?.reason).toBe('interrupted');
    expect(outcomeExitCode(outcome)).toBe(3);
    expect(sim.state.counters.byEndpoint['POST /chat/conversations/start-whatsapp'] ?? 0).toBe(0);
  });
});

describe('the write-ahead record', () => {
  it('is on disk before the request leaves: the transport finds the attempt in the journal and its first message in the ledger when the request arrives', async () => {
    await setup({ rows: 8 });
    const real = createFileStore(c.stateDir);
    const checkpoint = jobStatePaths(c.stateDir, 'cli-test').checkpoint;
    const ledgerFile = globalStatePaths(c.stateDir).ledger;
    // A ledger entry's write starts only once the store has acknowledged the contact's attempt: a request that
    // left on the journal's word alone would arrive before its entry is on disk, whatever the disk's speed.
    const acks = new Map<string, { done: Promise<void>; resolve: () => void }>();
    const ackOf = (phone: string) => {
      let ack = acks.get(phone);
      if (ack === undefined) {
        let resolve: () => void = () => undefined;
        const done = new Promise<void>((r) => (resolve = r));
        ack = { done, resolve };
        acks.set(phone, ack);
      }
      return ack;
    };
    const store: StateStore = {
      ...real,
      openJob: async (job, owner) => {
        const opened = await real.openJob(job, owner);
        const record: JobStore['record'] = async (event) => {
          await opened.record(event);
          if (event.t === 'attempt') ackOf(event.phone).resolve();
        };
        return new Proxy(opened, { get: (target, key) => (key === 'record' ? record : Reflect.get(target, key)) });
      },
      ledger: async () => {
        const ledger = await real.ledger();
        const record: Ledger['record'] = async (entry, from) => {
          await ackOf(entry.phone).done;
          await ledger.record(entry, from);
        };
        return new Proxy(ledger, { get: (target, key) => (key === 'record' ? record : Reflect.get(target, key)) });
      },
    };
    const api = client();
    const atArrival: Array<{ phone: string; attempt: boolean; ledger: boolean }> = [];
    const observed: ApiClient = {
      ...api,
      startWhatsapp(body, options) {
        // Read synchronously, as the request arrives: nothing may complete in between.
        const onDisk = (file: string) => readFileSync(file, 'utf8').split('\n').filter((line) => line.includes(`"phone":"${body.phone}"`));
        atArrival.push({ phone: body.phone, attempt: onDisk(checkpoint).some((line) => line.includes('"t":"attempt"')), ledger: onDisk(ledgerFile).length > 0 });
        return api.startWhatsapp(body, options);
      },
    };
    const prepared = await prepare(c.jobFile, { api });
    // No pacing wait between the record and the send: the request would leave at once if the records were not awaited.
    const outcome = await runJob(prepared, { store, api: observed, command: 'run', mode: { retryFailed: false, retryInDoubt: false }, owner: { pid: process.pid }, limiter: unlimitedLimiter() });
    expect(outcome.summary.byStatus.sent).toBe(8);
    expect(atArrival.map((a) => a.phone).sort()).toEqual([...c.phones].sort());
    expect(atArrival.filter((a) => !a.attempt || !a.ledger)).toEqual([]);
  });

  it('waits for the store to say the attempt and its ledger entry are durable before the request leaves, however late the store says it', async () => {
    await setup({ rows: 6 });
    const real = createFileStore(c.stateDir);
    const checkpoint = jobStatePaths(c.stateDir, 'cli-test').checkpoint;
    // What the store has acknowledged as durable: its promise resolved. Each acknowledgement is held
    // back a few turns of the event loop after the write itself, so a request that does not wait for it
    // arrives before it, whatever the disk's speed.
    const attemptsAcked = new Set<string>();
    const ledgerAcked = new Set<string>();
    const late = async () => {
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    };
    const store: StateStore = {
      ...real,
      openJob: async (job, owner) => {
        const opened = await real.openJob(job, owner);
        const record: JobStore['record'] = async (event) => {
          await opened.record(event);
          await late();
          if (event.t === 'attempt') attemptsAcked.add(event.phone);
        };
        return new Proxy(opened, { get: (target, key) => (key === 'record' ? record : Reflect.get(target, key)) });
      },
      ledger: async () => {
        const ledger = await real.ledger();
        const record: Ledger['record'] = async (entry) => {
          await ledger.record(entry);
          await late();
          ledgerAcked.add(entry.phone);
        };
        return new Proxy(ledger, { get: (target, key) => (key === 'record' ? record : Reflect.get(target, key)) });
      },
    };
    const api = client();
    const atArrival: Array<{ phone: string; acked: boolean; ledgered: boolean; onDisk: boolean }> = [];
    const observed: ApiClient = {
      ...api,
      startWhatsapp(body, options) {
        // Read synchronously, as the request arrives: nothing may complete in between.
        const journal = readFileSync(checkpoint, 'utf8');
        atArrival.push({
          phone: body.phone,
          acked: attemptsAcked.has(body.phone),
          ledgered: ledgerAcked.has(body.phone),
          onDisk: journal.split('\n').some((line) => line.includes('"t":"attempt"') && line.includes(`"phone":"${body.phone}"`)),
        });
        return api.startWhatsapp(body, options);
      },
    };
    const prepared = await prepare(c.jobFile, { api });
    // No pacing wait between the record and the send: the request would leave at once if the record were not awaited.
    const outcome = await runJob(prepared, {
      store,
      api: observed,
      command: 'run',
      mode: { retryFailed: false, retryInDoubt: false },
      owner: { pid: process.pid },
      limiter: unlimitedLimiter(),
    });
    expect(outcome.summary.byStatus.sent).toBe(6);
    expect(atArrival.map((a) => a.phone).sort()).toEqual([...c.phones].sort());
    expect(atArrival.filter((a) => !a.acked || !a.ledgered || !a.onDisk)).toEqual([]);
  });
});

describe('jobReport and jobStatus', () => {
  it('write one row per contact (pending ones too) and count replies after the send', async () => {
    await setup({ rows: 4 });
    await run();
    sim.state.inbound(phoneOf(0), 'quero!');
    const store = createFileStore(c.stateDir);
    const out = path.join(c.dir, 'out.json');
    const report = await jobReport(c.jobFile, { store, format: 'json', out });
    expect(report).toMatchObject({ job: 'cli-test', file: out, contacts: 4 });
    const rows = JSON.parse(await readFile(out, 'utf8')) as Array<{ status: string }>;
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
    const status = await jobStatus(c.jobFile, { store });
    expect(status).toMatchObject({ job: 'cli-test', notDone: 0, replies: { count: 0, rate: 0 } });
  });

  it('say to run the job first when the store has no state for it', async () => {
    await setup({ rows: 1 });
    const err = await jobStatus(c.jobFile, { store: createFileStore(c.stateDir) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as Error).message).toMatch(/has no state in .*run `outreach run` first/);
  });
});
