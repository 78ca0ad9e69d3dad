/**
 * The receiver while its database is down, against the real PostgreSQL and PgBouncer (no mock): the
 * platform waits 10 s and never retries, so every valid delivery is answered 200 and kept in the
 * spool, and applied when the database is back. The receiver's budget for a store operation is set
 * short here (300 ms) and its wait between two tries is a gate the test opens: nothing waits on the
 * wall clock, and no test asserts how long anything took.
 */
import { spawn } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiClient } from '../../src/api/index.js';
import { createPgStore, type RecordedEvent, type StateStore } from '../../src/checkpoint/index.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { knownPhones, startReceiver, type Receiver, type ReceiverOptions } from '../../src/webhook/index.js';
import { campaign, phoneOf } from '../helpers/campaign.js';
import { cliPath, runCli } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { schemaUrl, startCluster, startPgbouncer, type Bouncer, type Cluster } from '../helpers/pg-cluster.js';
import { delivery, SECRET } from './helpers/events.js';
import { send } from './helpers/http.js';

const pgUrl = inject('pgUrl');
const cleanups: Array<() => Promise<unknown>> = [];
let sim: RunningSimulator | undefined;

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  await sim?.close();
  sim = undefined;
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'outreach-outage-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The receiver's wait between two tries of the store: held until the test opens it, then short. */
function gate(): { sleep: NonNullable<ReceiverOptions['sleep']>; open(): void } {
  let opened = false;
  const held: Array<() => void> = [];
  return {
    sleep: (_ms, signal) =>
      new Promise<void>((resolve) => {
        if (opened || signal.aborted) return void setTimeout(resolve, 20);
        held.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      }),
    open() {
      opened = true;
      for (const release of held.splice(0)) release();
    },
  };
}

/** A logger whose lines the test reads. */
function capturedLogger(): { logger: Logger; lines: () => string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter((l) => l !== ''));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines: () => lines };
}

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;
const segmentsIn = async (dir: string) => (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort();
async function spooled(dir: string): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for (const name of await segmentsIn(dir)) {
    for (const line of (await readFile(path.join(dir, name), 'utf8')).split('\n')) if (line !== '') out.push(JSON.parse(line) as RecordedEvent);
  }
  return out;
}

describe.skipIf(!pgUrl)('the webhook receiver while its database is down', () => {
  let cluster: Cluster;
  let bouncer: Bouncer;
  let direct: pg.Pool;

  beforeAll(async () => {
    cluster = await startCluster();
    bouncer = await startPgbouncer(cluster, { serverLoginRetrySeconds: 1 });
    direct = new pg.Pool({ connectionString: cluster.url, max: 2 });
    direct.on('error', () => undefined);
  });
  afterAll(async () => {
    await direct?.end();
    await bouncer?.stop();
    await cluster?.destroy();
  });
  afterEach(async () => {
    // A test that failed with the database down leaves it up for the next.
    await cluster.start().catch(() => undefined);
  });

  /** A schema of its own behind `through` (the pooler or the server), its store, and the events table's rows of a message. */
  function storeOf(through: string): { url: string; store: StateStore; rowsOf(messageId: string): Promise<number> } {
    const schema = `outage_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
    const url = schemaUrl(through, schema);
    const store = createPgStore(url, { filesDir: tmpdir() });
    cleanups.push(() => store.close());
    return {
      url,
      store,
      rowsOf: async (messageId) => Number((await direct.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".events WHERE message_id = $1`, [messageId])).rows[0]?.n),
    };
  }

  async function receiverOn(store: StateStore, options: Partial<ReceiverOptions>): Promise<Receiver> {
    const receiver = await startReceiver({ port: 0, secret: SECRET, store, storeTimeoutMs: 300, ...options });
    cleanups.push(() => receiver.close());
    return receiver;
  }

  it("answers 200 to a STOP while the database behind PgBouncer is down, keeps it in a 0600 spool file, puts the person on the company's list once the database is back, and a run started afterwards does not message them", async () => {
    sim = await startSimulator({ seed: 31 });
    const { url, store, rowsOf } = storeOf(bouncer.url);
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STORE: url, OUTREACH_STATE_DIR: await folder() };
    const first = await campaign({ rows: 2 });
    cleanups.push(() => first.cleanup());
    expect((await runCli(['run', first.jobFile, '--no-progress'], { env })).code).toBe(0);
    const stop = phoneOf(0);

    // As `outreach webhook` starts it: phones from the jobs' states, the platform for the rest.
    const phones = knownPhones(store);
    await phones.load();
    const api = createApiClient({ baseUrl: sim.url, token: sim.token });
    cleanups.push(() => api.close());
    const spoolDir = path.join(await folder(), 'state', 'webhook-spool');
    const retry = gate();
    const receiver = await receiverOn(store, { api, knownPhones: (id) => phones.get(id), spoolDir, sleep: retry.sleep });
    sim.state.setWebhook({ url: receiver.url, secret: SECRET });

    await cluster.stop();
    const reply = sim.state.inbound(stop, 'STOP');
    await sim.state.webhookIdle();
    expect(sim.state.webhookDeliveries.find((d) => d.messageId === reply.message_id)?.status).toBe(200);
    expect(receiver.health()).toMatchObject({ storeUp: false, spooling: true, spooled: 1 });
    expect(receiver.health().reason).toMatch(/the store did not answer within 0\.3 s/);
    expect(receiver.stats).toMatchObject({ spooled: 1, recorded: 0, storeFailures: 0 });
    const [file] = await segmentsIn(spoolDir);
    expect(await modeOf(spoolDir)).toBe(0o700);
    expect(await modeOf(path.join(spoolDir, file ?? ''))).toBe(0o600);
    const kept = await spooled(spoolDir);
    expect(kept).toMatchObject([{ message_id: String(reply.message_id), content: 'STOP', direction: 'inbound', phone: stop, company_id: 1, source: 'webhook' }]);

    await cluster.start();
    retry.open();
    await receiver.drained();
    expect(receiver.health()).toEqual({ storeUp: true, spooling: false, spooled: 0 });
    expect(receiver.stats.appliedFromSpool).toBe(1);
    expect(await segmentsIn(spoolDir)).toEqual([]);
    expect(await rowsOf(String(reply.message_id))).toBe(1);
    expect((await store.account(1).windows()).lastInboundAt(stop)).toBe(Date.parse(kept[0]?.created_at ?? ''));
    expect((await store.account(1).suppressions()).get(stop)).toMatchObject({ source: 'reply_keyword', reason: 'replied "STOP"' });
    expect((await store.account(2).suppressions()).get(stop)).toBeUndefined();

    // Another message of the same company, to the same people and one more, with no frequency cap: only the STOP holds anyone back.
    const second = await campaign({
      rows: 3,
      name: 'second',
      job: { message: { template: { name: 'welcome', language: 'pt_BR', variables: { '1': '{{name}}' } } }, limits: { min_hours_between_messages: 0 } },
    });
    cleanups.push(() => second.cleanup());
    const run = await runCli(['run', second.jobFile, '--no-progress'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(sim.state.messageCount(stop)).toBe(1);
    expect(sim.state.messageCount(phoneOf(1))).toBe(2);
    expect(sim.state.messageCount(phoneOf(2))).toBe(1);
  });

  it('applies once a message delivered twice while the database is down (its connection refused)', async () => {
    const { store, rowsOf } = storeOf(cluster.url);
    const spoolDir = path.join(await folder(), 'webhook-spool');
    const retry = gate();
    const receiver = await receiverOn(store, { spoolDir, sleep: retry.sleep });
    await cluster.stop();
    const d = delivery({ clientId: '77', conversationId: '501', createdAt: '2025-03-01T10:00:00.000Z' });
    const headers = { 'x-service-signature': d.signature };
    expect((await send(receiver.url, { body: d.raw, headers })).status).toBe(200);
    expect((await send(receiver.url, { body: d.raw, headers })).status).toBe(200);
    expect(receiver.stats).toMatchObject({ spooled: 1, duplicates: 1 });
    expect((await spooled(spoolDir)).map((e) => e.message_id)).toEqual([d.messageId]);
    // The last try's sentence (the database's place, never a run's advice): refused, closed while it stopped, or
    // (a store that was reached waits for it to come back, OUTREACH_STORE_PATIENCE_SECONDS) not answering within the receiver's budget.
    expect(receiver.health().reason).toMatch(/\(database postgres on 127\.0\.0\.1:\d+\)(: | cannot be used: )the (connection was refused|server closed the connection)|^the store did not answer within 0\.3 s/);
    expect(receiver.health().reason).not.toMatch(/outreach resume|run again/);

    await cluster.start();
    retry.open();
    await receiver.drained();
    expect(await rowsOf(d.messageId)).toBe(1);
    expect(receiver.stats.appliedFromSpool).toBe(1);
    expect((await store.openWindowStore()).lastInboundByClient('77')).toBe(Date.parse('2025-03-01T10:00:00.000Z'));
  });

  it('starts while the database behind PgBouncer is down, answers 200, and applies what it kept once it can open the store', async () => {
    const { store, rowsOf } = storeOf(bouncer.url);
    expect(await store.companies()).toEqual([]);
    await cluster.stop();
    const spoolDir = path.join(await folder(), 'webhook-spool');
    const retry = gate();
    const receiver = await receiverOn(store, { spoolDir, sleep: retry.sleep });
    expect(receiver.health()).toMatchObject({ storeUp: false, spooling: true, spooled: 0 });
    const d = delivery({ clientId: '80', createdAt: '2025-03-01T10:00:00.000Z' });
    expect((await send(receiver.url, { body: d.raw, headers: { 'x-service-signature': d.signature } })).status).toBe(200);
    expect(receiver.health()).toMatchObject({ storeUp: false, spooling: true, spooled: 1 });

    await cluster.start();
    retry.open();
    await receiver.drained();
    expect(await rowsOf(d.messageId)).toBe(1);
    expect((await store.openWindowStore()).lastInboundByClient('80')).toBe(Date.parse('2025-03-01T10:00:00.000Z'));
    expect(receiver.health()).toEqual({ storeUp: true, spooling: false, spooled: 0 });
  });

  it('applies at its start what a receiver stopped during the outage left in the spool, in order', async () => {
    const { store, url, rowsOf } = storeOf(bouncer.url);
    const spoolDir = path.join(await folder(), 'webhook-spool');
    const before = await receiverOn(store, { spoolDir, sleep: gate().sleep });
    await cluster.stop();
    const stop = delivery({ clientId: '78', content: 'STOP', createdAt: '2025-03-01T10:00:00.000Z' });
    const start = delivery({ clientId: '78', content: 'START', createdAt: '2025-03-01T10:05:00.000Z' });
    for (const d of [stop, start]) expect((await send(before.url, { body: d.raw, headers: { 'x-service-signature': d.signature } })).status).toBe(200);
    await before.close();
    expect((await spooled(spoolDir)).map((e) => e.message_id)).toEqual([stop.messageId, start.messageId]);

    await cluster.start();
    const again = createPgStore(url, { filesDir: tmpdir() });
    cleanups.push(() => again.close());
    const retry = gate();
    retry.open();
    const after = await receiverOn(again, { spoolDir, sleep: retry.sleep, knownPhones: (id) => (id === '78' ? '+5511999990078' : undefined) });
    await after.drained();
    expect(after.stats.appliedFromSpool).toBe(2);
    expect(await rowsOf(stop.messageId)).toBe(1);
    expect(await rowsOf(start.messageId)).toBe(1);
    expect(await segmentsIn(spoolDir)).toEqual([]);
    // The STOP and then the START: the phone is not on the list.
    expect((await again.suppressions()).get('+5511999990078')).toBeUndefined();
  });

  it('skips and reports a spool line torn by a crash, and applies the rest at the next start', async () => {
    const { store, url, rowsOf } = storeOf(bouncer.url);
    const spoolDir = path.join(await folder(), 'webhook-spool');
    const before = await receiverOn(store, { spoolDir, sleep: gate().sleep });
    await cluster.stop();
    const kept = delivery({ clientId: '79' });
    expect((await send(before.url, { body: kept.raw, headers: { 'x-service-signature': kept.signature } })).status).toBe(200);
    await before.close();
    const [file] = await segmentsIn(spoolDir);
    // The crash: the next line written halfway.
    await appendFile(path.join(spoolDir, file ?? ''), '{"message_id":"424242","conversation_id":"5');

    await cluster.start();
    const again = createPgStore(url, { filesDir: tmpdir() });
    cleanups.push(() => again.close());
    const retry = gate();
    retry.open();
    const { logger, lines } = capturedLogger();
    const after = await receiverOn(again, { spoolDir, sleep: retry.sleep, logger });
    await after.drained();
    expect(after.stats).toMatchObject({ appliedFromSpool: 1, spoolLinesSkipped: 1 });
    expect(await rowsOf(kept.messageId)).toBe(1);
    expect(await rowsOf('424242')).toBe(0);
    expect(await segmentsIn(spoolDir)).toEqual([]);
    const reported = lines().map((l) => JSON.parse(l) as { level: number; msg: string }).find((l) => /torn/.test(l.msg));
    expect(reported?.level).toBe(50);
    expect(reported?.msg).toBe(`${path.join(spoolDir, file ?? '')} line 2 is torn (a write cut short by a crash; the delivery was never answered): skipped; message 424242 is not applied from it; \`outreach sync\` recovers it from the platform`);
  });

  it('outreach webhook, stopped while the database is down, says what waits in its spool (under the state folder); started again, it applies it', async () => {
    const { url, rowsOf } = storeOf(bouncer.url);
    const stateDir = await folder();
    const env = { ...process.env, NO_COLOR: '1', OUTREACH_STORE: url, OUTREACH_STATE_DIR: stateDir, OUTREACH_WEBHOOK_SECRET: SECRET };
    const webhook = () => {
      const child = spawn(process.execPath, [cliPath, 'webhook', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      cleanups.push(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      });
      return { child, exited, output: () => out, url: async () => {
        await waitFor(() => /listening on (\S+)/.test(out) || child.exitCode !== null);
        return /listening on (\S+)/.exec(out)?.[1] ?? '';
      } };
    };
    const first = webhook();
    const at = await first.url();
    expect(first.output()).toContain(`spool: ${path.join(stateDir, 'webhook-spool')}\n`);
    await cluster.stop();
    const d = delivery({ clientId: '81' });
    expect((await send(at, { body: d.raw, headers: { 'x-service-signature': d.signature } })).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('webhook receiver stopped: 0 recorded, 0 repeated, 0 refused, 1 kept in the spool while the store could not take them, 0 applied from it\n');
    expect(first.output()).toContain(`1 event(s) wait in the spool ${path.join(stateDir, 'webhook-spool')}: the receiver applies them when it starts again and the store answers\n`);

    await cluster.start();
    const second = webhook();
    await second.url();
    await waitFor(async () => (await rowsOf(d.messageId)) === 1, 30_000, 100);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(second.output()).toContain('0 recorded, 0 repeated, 0 refused, 0 kept in the spool while the store could not take them, 1 applied from it\n');
    expect(await segmentsIn(path.join(stateDir, 'webhook-spool'))).toEqual([]);
  });
});
