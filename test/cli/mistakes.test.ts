import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/api/index.js';
import { AppError, platformError } from '../../src/app/index.js';
import { consoleLogger, flushLogger } from '../../src/cli/logger.js';
import { runWebhook, webhookSettings } from '../../src/cli/webhook-session.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cli } from '../helpers/in-process.js';

/** Every mistake a user can make before a send: one sentence naming the field and the fix, exit 2, nothing sent. */
let sim: RunningSimulator | undefined;
let c: Campaign | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await sim?.close();
  await c?.cleanup();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  sim = undefined;
  c = undefined;
});

async function setup(job: Record<string, unknown>, rows = 5): Promise<{ sim: RunningSimulator; c: Campaign }> {
  sim = await startSimulator({ seed: 3 });
  c = await campaign({ rows, job });
  return { sim, c };
}

function env(extra: Record<string, string> = {}) {
  return { env: { OUTREACH_BASE_URL: sim!.url, OUTREACH_TOKEN: sim!.token, OUTREACH_STATE_DIR: c!.stateDir, ...extra } };
}

function sends(s: RunningSimulator): number {
  return s.state.requests.filter((q) => q.method === 'POST').length;
}

/** The sentence after the timestamp and "outreach: ". */
function sentence(stderr: string): string {
  return stderr.replace(/^\S+Z /gm, '').replace(/^outreach: /, '').trimEnd();
}

describe('a template that exists but cannot be sent', () => {
  it('names a PENDING template, its status and the wait, exits 2 and sends nothing', async () => {
    const { sim, c } = await setup({ message: { template: { name: 'draft_offer', language: 'en_US', variables: { '1': '{{name}}' } } } });
    const r = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(r.code).toBe(2);
    expect(sentence(r.stderr)).toBe(
      `${c.jobFile}:\n  message.template: draft_offer (en_US) is PENDING, not APPROVED; only approved templates can be sent: wait for the platform to approve it, or choose an approved template`,
    );
    expect(sends(sim)).toBe(0);
  });

  it('names a REJECTED template and says to fix and resubmit it, in plan too', async () => {
    const { sim, c } = await setup({ message: { template: { name: 'old_promo', language: 'pt_BR', variables: { '1': '{{name}}' } } } });
    const r = await cli(['plan', c.jobFile], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'message.template: old_promo (pt_BR) is REJECTED, not APPROVED; only approved templates can be sent: edit it in the platform and submit it again, or choose an approved template',
    );
    expect(r.stderr).not.toContain('there is no template');
    expect(sends(sim)).toBe(0);
  });
});

describe('a placeholder naming a column the list does not have', () => {
  const misspelt = { message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{cupon}}' } } } };

  it('is one job-level error naming the field and the closest column, before any row is rejected (run)', async () => {
    const { sim, c } = await setup(misspelt);
    const r = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(r.code).toBe(2);
    expect(sentence(r.stderr)).toBe(
      `${c.jobFile}: message.template.variables["2"] uses {{cupon}}, but ${path.join(c.dir, 'contacts.csv')} has no column "cupon" (columns are: Phone, First name, coupon); did you mean {{coupon}}?`,
    );
    expect(r.stderr).not.toContain('rejected');
    expect(sends(sim)).toBe(0);
    expect(existsSync(path.join(c.stateDir, 'cli-test', 'rejects.csv'))).toBe(false);
  });

  it('stops plan the same way, with no rows counted as rejected', async () => {
    const { c } = await setup(misspelt);
    const r = await cli(['plan', c.jobFile], env());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('message.template.variables["2"] uses {{cupon}}');
    expect(r.stderr).toContain('did you mean {{coupon}}?');
  });
});

describe('a 404 from the platform', () => {
  it('on the company names company_id and how to find the right one', async () => {
    const { sim, c } = await setup({ company_id: 99 });
    const r = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(r.code).toBe(2);
    expect(sentence(r.stderr)).toBe(
      `${c.jobFile}: company_id 99: the platform has no such company (404 to GET /company/99/channels: Company not found.); set company_id to your company's id, shown in the platform's settings`,
    );
    expect(sends(sim)).toBe(0);
  });

  it('on every path says the base URL is probably wrong, naming it', async () => {
    const { c } = await setup({});
    const wrong = `${sim!.url}/api/v9`;
    const r = await cli(['run', c.jobFile, '--no-progress'], env({ OUTREACH_BASE_URL: wrong }));
    expect(r.code).toBe(2);
    expect(sentence(r.stderr)).toBe(
      `the platform answers 404 to every path under ${wrong} (GET /company/1/channels and GET /wba/templates), so the base URL is probably wrong; check --base-url or OUTREACH_BASE_URL`,
    );
  });

  it('on a channel names channel_id and the command that lists the channels', () => {
    const err = new NotFoundError('GET /channels/77 answered 404: Channel not found.', {
      status: 404,
      platformMessage: 'Channel not found.',
      body: undefined,
      method: 'GET',
      path: '/channels/77',
    });
    const said = platformError(err, { job: { file: 'job.json', companyId: 1, channelId: 77 } });
    expect(said).toBeInstanceOf(AppError);
    expect((said as AppError).message).toBe(
      'job.json: channel_id 77: the platform has no such channel (404 to GET /channels/77: Channel not found.); run `outreach channels --company-id 1` and set channel_id to one of them',
    );
  });
});

describe('an inactive channel', () => {
  it('is refused before anything is sent, naming it', async () => {
    const { sim, c } = await setup({ channel_id: 13 });
    const r = await cli(['run', c.jobFile, '--no-progress'], env());
    expect(r.code).toBe(2);
    expect(sentence(r.stderr)).toBe(
      `${c.jobFile}:\n  channel_id 13: channel 13 (wba, Old number, inactive) is inactive (status 0), so the platform refuses every send; activate it in the platform or choose another channel (outreach channels --company-id 1)`,
    );
    expect(sends(sim)).toBe(0);
  });
});

describe('flags and phones', () => {
  it.each([['--dry-run'], ['--dryrun'], ['-n']])('run %s says that `outreach plan` is the dry run', async (flag) => {
    const r = await cli(['run', flag, 'job.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: there is no ${flag}; \`outreach plan <job>\` is the dry run\nusage: outreach run [options] <job> (outreach run --help for more)\n`);
  });

  it('suppress gives one fix for a phone written without its country code', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outreach-mistakes-'));
    dirs.push(dir);
    const r = await cli(['suppress', 'add', '11987654321', '--state-dir', dir]);
    expect(r.code).toBe(2);
    expect(sentence(r.stderr)).toBe('"11987654321" has no country code; write it as +<country code><number> (e.g. +5511987654321) or pass --default-country BR');
  });
});

describe('webhook and sync speak in sentences, and log JSON lines to their log file', () => {
  const PHONE = '+5511987650002';

  it('sync prints a sentence per opt-out, JSON lines go to --log-file, and a phone already on the list is not suppressed again', async () => {
    sim = await startSimulator({ seed: 3 });
    const dir = await mkdtemp(path.join(tmpdir(), 'outreach-mistakes-'));
    dirs.push(dir);
    sim.state.inbound(PHONE, 'STOP');
    sim.state.inbound('+5511987650003', 'PARAR');
    expect((await cli(['suppress', 'add', PHONE, '--state-dir', dir])).code).toBe(0);
    const log = path.join(dir, 'sync.log');
    const r = await cli(['sync', '--state-dir', dir, '--log-file', log], { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token } });
    expect(r.code).toBe(0);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.some((l) => l.trimStart().startsWith('{'))).toBe(false);
    expect(lines.map((l) => l.replace(/^\S+Z /, ''))).toEqual(['opt-out reply: +5511987650003 suppressed']);
    const json = (await readFile(log, 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as { msg: string; phone?: string });
    expect(json.filter((l) => l.msg === 'opt-out reply: +5511987650003 suppressed')).toHaveLength(1);
    expect(json.some((l) => l.phone === PHONE && /suppressed$/.test(l.msg))).toBe(false);
  });

  it('webhook prints its warnings as sentences and writes JSON lines to its log file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outreach-mistakes-'));
    dirs.push(dir);
    const log = path.join(dir, 'webhook.log');
    const err = new PassThrough();
    let said = '';
    err.on('data', (d: Buffer) => (said += d.toString()));
    const logger = consoleLogger({ logFile: log, err });
    const stop = new AbortController();
    const settings = await webhookSettings({ port: '0', host: '127.0.0.1', stateDir: dir }, { OUTREACH_WEBHOOK_SECRET: 'whsec' });
    const running = runWebhook(settings, { out: new PassThrough(), logger, stop: stop.signal });
    stop.abort();
    await running;
    await flushLogger(logger);
    expect(said).toMatch(/^\S+Z warning: OUTREACH_TOKEN is not set: client phones are not looked up/);
    expect(said).not.toContain('{"level"');
    const json = JSON.parse((await readFile(log, 'utf8')).trimEnd().split('\n')[0]!) as { level: number; msg: string };
    expect(json).toMatchObject({ level: 40, msg: expect.stringMatching(/^OUTREACH_TOKEN is not set/) });
  });
});

describe('no MaxListenersExceededWarning', () => {
  it('from track reading many messages at once, nor from run or reconcile', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const { c } = await setup({ rate: { per_second: 1000, concurrency: 16 } }, 60);
      expect((await cli(['run', c.jobFile, '--no-progress'], env())).code).toBe(0);
      const tracked = await cli(['track', c.jobFile], env());
      expect(tracked.stdout).toContain('60 messages read');
      expect((await cli(['reconcile', c.jobFile], env())).code).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  });
});
