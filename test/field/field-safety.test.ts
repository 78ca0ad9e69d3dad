import { createServer, type Server } from 'node:http';
import { copyFile, mkdir, readdir, readFile, rmdir, stat, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, errorFromResponse, type ApiClient } from '../../src/api/index.js';
import { AppError, jobStatus, prepare, runJob } from '../../src/app/index.js';
import { createFileStore, type FileStoreOptions } from '../../src/checkpoint/backends.js';
import { outcomeExitCode, userErrorExitCode } from '../../src/cli/exit.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

const START = 'POST /chat/conversations/start-whatsapp';
let sim: RunningSimulator;
let c: Campaign;
let proxy: Server | undefined;
const clients: ApiClient[] = [];

afterEach(async () => {
  for (const api of clients.splice(0)) await api.close();
  if (proxy) await new Promise((r) => proxy?.close(r));
  proxy = undefined;
  await sim?.close();
  await c?.cleanup();
});

async function setup(opts: Parameters<typeof campaign>[0], token?: string) {
  sim = await startSimulator({ seed: 11, ...(token && { token }) });
  c = await campaign(opts);
}

/** The platform for the command line, the state folder left to its default (the account's store of this test's home). */
const env = () => ({ OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: '' });
const starts = () => sim.state.counters.byEndpoint[START] ?? 0;

async function runIn(store: FileStoreOptions = {}, api?: ApiClient) {
  const client = createApiClient({ baseUrl: sim.url, token: sim.token });
  clients.push(client);
  const prepared = await prepare(c.jobFile, { api: client });
  return runJob(prepared, {
    store: createFileStore(c.stateDir, store),
    api: api ?? client,
    command: 'run',
    mode: { retryFailed: false, retryInDoubt: false },
    owner: { pid: process.pid },
  });
}

describe('nobody twice wherever it runs', () => {
  it("keeps the state in the user's account store, so a run from another directory finds it and sends nobody again", async () => {
    await setup({ rows: 6 });
    const first = await cli(['run', 'job.json', '--no-progress'], { cwd: c.dir, env: env() });
    expect(first.code).toBe(0);
    expect(starts()).toBe(6);
    expect((await stat(path.join(process.env.XDG_STATE_HOME ?? '', 'outreach', 'cli-test', 'checkpoint.jsonl'))).isFile()).toBe(true);
    expect((await stat(path.join(c.dir, 'cli-test', 'report.csv'))).isFile()).toBe(true);

    const again = await cli(['run', c.jobFile, '--no-progress'], { cwd: os.tmpdir(), env: env() });
    expect(again.code).toBe(0);
    expect(starts()).toBe(6);
    expect(again.stdout).toMatch(/sent\s+6/);
  });

  it('continues the job from another job file of the same name and message, sending nobody again', async () => {
    await setup({ rows: 3 });
    expect((await cli(['run', c.jobFile, '--no-progress'], { env: env() })).code).toBe(0);
    const copy = path.join(c.dir, 'copy-of-job.json');
    await copyFile(c.jobFile, copy);
    const again = await cli(['run', copy, '--no-progress'], { env: env() });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`continuing job cli-test started from host ${os.hostname()}: ${c.jobFile}`);
    expect(starts()).toBe(3);
  });

  it('refuses another job file with the same job name and another message, naming both files', async () => {
    await setup({ rows: 3 });
    expect((await cli(['run', c.jobFile, '--no-progress'], { env: env() })).code).toBe(0);
    const copy = path.join(c.dir, 'copy-of-job.json');
    const job = JSON.parse(await readFile(c.jobFile, 'utf8')) as Record<string, unknown>;
    await writeFile(copy, JSON.stringify({ ...job, message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': 'OTHER' } } } }));
    const refused = await cli(['run', copy, '--no-progress'], { env: env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(c.jobFile);
    expect(refused.stderr).toContain(copy);
    expect(starts()).toBe(3);
  });

  it('refuses a resume on another channel like a changed message, naming the change', async () => {
    await setup({ rows: 2 });
    expect((await cli(['run', c.jobFile, '--no-progress'], { env: env() })).code).toBe(0);
    const job = JSON.parse(await readFile(c.jobFile, 'utf8')) as Record<string, unknown>;
    await writeFile(c.jobFile, JSON.stringify({ ...job, channel_id: 11 }));
    const refused = await cli(['resume', c.jobFile, '--no-progress'], { env: env() });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/changed since this job's checkpoint started \(.*channel_id 10 → 11.*\); run again with --force-changed/);
    expect(starts()).toBe(2);
  });

  it('says in plan what earlier runs did, so a dry run of a finished job does not look like a fresh one', async () => {
    await setup({ rows: 4 });
    await cli(['run', c.jobFile, '--no-progress'], { env: env() });
    const plan = await cli(['plan', c.jobFile], { env: env() });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/already\s+sent 4, skipped 0, failed 0, in doubt 0, deferred 0 \(earlier runs\); would send 0 now/);
  });
});

describe('failures nobody sees', () => {
  it('stops plan (exit 2) on an after-send custom field the platform does not have, naming it and listing the fields', async () => {
    await setup({ rows: 2, job: { after_send: { custom_fields: { campain: 'bf' } } } });
    const r = await cli(['plan', c.jobFile], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/after_send\.custom_fields\.campain/);
    expect(r.stderr).toMatch(/campaign/);
    expect(starts()).toBe(0);
  });

  it('exits 1 when a custom-field write failed, and status shows it', async () => {
    await setup({ rows: 3, job: { after_send: { custom_fields: { campaign: 'bf-{{coupon}}' } } } });
    const real = createApiClient({ baseUrl: sim.url, token: sim.token });
    clients.push(real);
    const failing: ApiClient = {
      ...real,
      setCustomFieldValues: async () => {
        throw errorFromResponse(422, { success: false, message: 'value not allowed' }, {}, 'POST', '/company/1/crm-custom-field-values/client/1');
      },
    };
    const outcome = await runIn({}, failing);
    expect(outcome.summary.byStatus.sent).toBe(3);
    expect(outcome.summary.afterSendFailed).toEqual({ contacts: 3, bySteps: { custom_fields: 3 } });
    expect(outcomeExitCode(outcome)).toBe(1);

    const status = await cli(['status', c.jobFile, '--state-dir', c.stateDir]);
    expect(status.code).toBe(1);
    expect(status.stdout).toMatch(/after-send steps failed: 3 \(custom fields 3\); resume repeats them/);
    expect((await jobStatus(c.jobFile, { store: createFileStore(c.stateDir) })).notDone).toBe(3);
  });
});

describe('bad state: one sentence, nothing sent, the next run unblocked', () => {
  it('refuses a checkpoint path that is a folder (exit 2), then runs once it is gone', async () => {
    await setup({ rows: 2 });
    const journal = path.join(c.stateDir, 'cli-test', 'checkpoint.jsonl');
    await mkdir(journal, { recursive: true });
    const r = await cli(['run', c.jobFile, '--no-progress', '--state-dir', c.stateDir], { env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/checkpoint\.jsonl is a folder, not a state file; move it out of the way or pass another --state-dir/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(starts()).toBe(0);
    await rmdir(journal);
    expect((await cli(['run', c.jobFile, '--no-progress', '--state-dir', c.stateDir], { env: env() })).code).toBe(0);
    expect(starts()).toBe(2);
  });

  it('leaves no lock behind when the disk is full before the run starts (exit 2), and the next run goes', async () => {
    await setup({ rows: 2 });
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const err = await runIn({ lock: { writeFile: () => Promise.reject(full) } }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/disk is full/);
    expect(userErrorExitCode(err as Error)).toBe(2);
    expect(starts()).toBe(0);
    expect(await readdir(path.join(c.stateDir, 'cli-test')).catch(() => [])).not.toContain('lock');
    expect(outcomeExitCode(await runIn())).toBe(0);
    expect(starts()).toBe(2);
  });

  it('stops with exit 3 when the disk fills during the run, and the next run sends nobody twice', async () => {
    await setup({ rows: 30, job: { rate: { per_second: 200, concurrency: 2 } } });
    let writes = 0;
    const store: FileStoreOptions = {
      journal: {
        openFile: async (file) => {
          const { open } = await import('node:fs/promises');
          const handle = await open(file, 'a');
          return {
            write: (async (data: string) => {
              if (++writes > 10) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
              return handle.write(data);
            }) as typeof handle.write,
            datasync: () => handle.datasync(),
            close: () => handle.close(),
          };
        },
      },
    };
    const err = await runIn(store).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    // With a request in flight when the write failed, reconcile settles it first; either way resume goes on.
    expect((err as AppError).message).toMatch(/could not write the checkpoint .*nothing more was sent: make room or fix the folder, then run (?:`outreach reconcile` \(it settles the (?:contact whose request was|\d+ contacts whose requests were) in flight\), then )?`outreach resume`$/);
    expect(userErrorExitCode(err as AppError)).toBe(3);
    const sentBefore = starts();
    expect(sentBefore).toBeLessThan(30);

    const next = await runIn();
    expect(next.summary.byStatus.sent + next.summary.byStatus.in_doubt).toBe(30);
    for (const phone of c.phones) expect(sim.state.startWhatsappCount(phone)).toBeLessThanOrEqual(1);
  });

  it('refuses a contacts JSON nested thousands of levels deep with one sentence (exit 2)', async () => {
    await setup({ rows: 1 });
    const deep = path.join(c.dir, 'deep.json');
    await writeFile(deep, `${'['.repeat(20_000)}${']'.repeat(20_000)}`);
    const job = JSON.parse(await readFile(c.jobFile, 'utf8')) as Record<string, unknown>;
    await writeFile(c.jobFile, JSON.stringify({ ...job, contacts: 'deep.json' }));
    const r = await cli(['plan', c.jobFile, '--offline', '--channel-type', 'wba']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/deep\.json/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a job file with __proto__ anywhere as an unknown field (exit 2)', async () => {
    await setup({ rows: 1 });
    const text = (await readFile(c.jobFile, 'utf8')).replace('"rate": {', '"rate": { "__proto__": { "per_second": 100000 },');
    await writeFile(c.jobFile, text);
    const r = await cli(['plan', c.jobFile, '--offline', '--channel-type', 'wba']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/rate: unknown field "__proto__"/);
  });
});

describe('the token, echoed by the platform in any form', () => {
  it('appears in no output, report, summary, checkpoint or log', async () => {
    const token = 'tok/en+1=Zx9';
    await setup({ rows: 3, job: { retry: { attempts: 1, backoff_ms: 1 } } }, token);
    const echoed = [token, JSON.stringify(token).slice(1, -1).replace('/', '\\/'), token.replace('/', '\\u002f'), encodeURIComponent(token)];
    proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', () => {
        if (req.method === 'POST' && req.url?.includes('start-whatsapp')) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ success: false, message: `provider refused, auth was ${echoed.join(' or ')}` }));
          return;
        }
        void fetch(`${sim.url}${req.url ?? ''}`, {
          method: req.method ?? 'GET',
          headers: { authorization: String(req.headers.authorization ?? ''), 'content-type': 'application/json' },
          ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
        }).then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(await answer.text());
        });
      });
    });
    await new Promise<void>((r) => proxy?.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

    const r = await cli(['run', c.jobFile, '--no-progress', '--state-dir', c.stateDir], { env: { OUTREACH_BASE_URL: url, OUTREACH_TOKEN: token } });
    expect(r.code).toBe(1);
    const json = await cli(['run', c.jobFile, '--json', '--state-dir', c.stateDir], { env: { OUTREACH_BASE_URL: url, OUTREACH_TOKEN: token } });
    const status = await cli(['status', c.jobFile, '--state-dir', c.stateDir]);
    const forms = [...echoed, JSON.stringify(token).slice(1, -1)];
    const outputs = [r.stdout, r.stderr, json.stdout, json.stderr, status.stdout, status.stderr];
    for (const file of await filesUnder(c.stateDir)) outputs.push(await readFile(file, 'utf8'));
    expect(outputs.join('\n')).toMatch(/provider refused, auth was/);
    for (const text of outputs) for (const form of forms) expect(text.includes(form), `found ${form}`).toBe(false);
  });
});

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}
