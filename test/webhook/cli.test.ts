import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerSync, runSync, syncSettings } from '../../src/cli/commands/sync.js';
import { registerWebhook } from '../../src/cli/commands/webhook.js';
import { runWebhook, webhookSettings } from '../../src/cli/webhook-session.js';
import { AppError } from '../../src/app/index.js';
import { CliError, ExitCode, userErrorExitCode } from '../../src/cli/exit.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { storedEvents, storedWindow } from './helpers/events.js';
import { DEFAULT_KEYWORDS } from '../../src/webhook/index.js';

const SECRET = 'whsec_cli';
const PHONE = '+5511987650002';
const silent = pino({ level: 'silent' });

let stateDir: string;
let sim: RunningSimulator;

beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'outreach-cli-webhook-'));
  sim = await startSimulator({ port: 0 });
});
afterEach(async () => {
  await sim.close();
  await rm(stateDir, { recursive: true, force: true });
});

function output(): { stream: PassThrough; text: () => string; line: (re: RegExp) => Promise<RegExpMatchArray> } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d: Buffer) => (text += d.toString()));
  return {
    stream,
    text: () => text,
    line: (re) =>
      new Promise((resolve) => {
        const check = () => {
          const m = text.match(re);
          if (m) {
            stream.off('data', check);
            resolve(m);
          }
        };
        stream.on('data', check);
        check();
      }),
  };
}

describe('outreach webhook', () => {
  it('refuses to start without OUTREACH_WEBHOOK_SECRET, saying where the secret is', async () => {
    const err = await webhookSettings({ port: '0', host: '127.0.0.1' }, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).message).toBe(
      'OUTREACH_WEBHOOK_SECRET is not set: copy the signing secret shown under Integrations in the platform settings',
    );
    expect((err as CliError).exitCode).toBe(ExitCode.invalid);
  });

  it('needs no token (no phone look-ups) but a base URL once a token is given', async () => {
    const env = { OUTREACH_WEBHOOK_SECRET: SECRET, OUTREACH_STATE_DIR: stateDir };
    expect(await webhookSettings({ port: '0', host: '127.0.0.1' }, env)).toEqual({
      port: 0,
      host: '127.0.0.1',
      secret: SECRET,
      store: { kind: 'folder', path: stateDir, filesDir: stateDir },
      keywords: DEFAULT_KEYWORDS,
      spoolDir: path.join(stateDir, 'webhook-spool'),
    });
    await expect(webhookSettings({ port: '0', host: '127.0.0.1' }, { ...env, OUTREACH_TOKEN: 't' })).rejects.toThrow(
      /no platform address/,
    );
    await expect(webhookSettings({ port: 'http', host: '127.0.0.1' }, env)).rejects.toThrow(/--port http/);
  });

  it('keeps its spool in --spool, else OUTREACH_WEBHOOK_SPOOL, else webhook-spool/ in the state folder (this machine\'s with a database store)', async () => {
    const base = { OUTREACH_WEBHOOK_SECRET: SECRET, HOME: stateDir };
    const flags = { port: '0', host: '127.0.0.1' };
    expect((await webhookSettings({ ...flags, spool: 'here' }, { ...base, OUTREACH_WEBHOOK_SPOOL: '/elsewhere' })).spoolDir).toBe(path.resolve('here'));
    expect((await webhookSettings(flags, { ...base, OUTREACH_WEBHOOK_SPOOL: '/elsewhere' })).spoolDir).toBe('/elsewhere');
    expect((await webhookSettings(flags, base)).spoolDir).toBe(path.join(stateDir, '.local', 'state', 'outreach', 'webhook-spool'));
    const db = await webhookSettings(flags, { ...base, OUTREACH_STORE: 'postgres://app@db.example:5432/outreach' });
    expect(db.store.kind).toBe('postgres');
    expect(db.spoolDir).toBe(path.join(stateDir, '.local', 'state', 'outreach', 'webhook-spool'));
    expect((await webhookSettings({ ...flags, stateDir }, { ...base, OUTREACH_STORE: 'postgres://app@db.example:5432/outreach' })).spoolDir).toBe(path.join(stateDir, 'webhook-spool'));
  });

  it('registers `webhook` and `sync` with their options', () => {
    const program = new Command();
    registerWebhook(program);
    registerSync(program);
    const webhook = program.commands.find((c) => c.name() === 'webhook')!;
    const syncCommand = program.commands.find((c) => c.name() === 'sync')!;
    expect(webhook.description()).toBe("Receive the platform's signed chat.message webhooks: replies and 24-hour windows");
    expect(webhook.options.map((o) => o.long)).toEqual(['--port', '--host', '--state-dir', '--store', '--store-file', '--base-url', '--token-file', '--log-file', '--company', '--spool', '--log-format']);
    expect(syncCommand.description()).toBe('Poll the platform for messages the webhook missed');
    expect(syncCommand.options.map((o) => o.long)).toEqual(['--since', '--state-dir', '--store', '--store-file', '--base-url', '--token-file', '--json', '--log-file', '--company', '--metrics-file', '--pushgateway', '--log-format']);
  });

  it('listens, records what the simulator sends, links phones with the token, and stops on the signal', async () => {
    const out = output();
    const stop = new AbortController();
    const settings = await webhookSettings(
      { port: '0', host: '127.0.0.1', stateDir },
      { OUTREACH_WEBHOOK_SECRET: SECRET, OUTREACH_TOKEN: sim.token, OUTREACH_BASE_URL: sim.url },
    );
    const running = runWebhook(settings, { out: out.stream, logger: silent, stop: stop.signal });
    const [, url] = await out.line(/webhook receiver listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
    sim.state.setWebhook({ url: `${url}/`, secret: SECRET });
    const inbound = sim.state.inbound(PHONE, 'oi');
    await sim.state.webhookIdle();
    stop.abort();
    const stats = await running;

    expect(stats.recorded).toBe(1);
    expect(out.text()).toContain('webhook receiver stopped: 1 recorded, 0 repeated, 0 refused');
    expect(await storedEvents(path.join(stateDir, 'events.jsonl'))).toMatchObject([{ message_id: String(inbound.message_id) }]);
    expect((await storedWindow(path.join(stateDir, 'window.json')))?.links[String(inbound.client_id)]).toBe(PHONE);
  });
});

describe('outreach sync', () => {
  it('prints what it recorded, as one JSON object with --json', async () => {
    sim.state.inbound(PHONE, 'missed by the webhook');
    const env = { OUTREACH_TOKEN: sim.token, OUTREACH_BASE_URL: sim.url };
    const out = output();
    await runSync(await syncSettings({ stateDir, json: true }, env), { out: out.stream, logger: silent });
    expect(JSON.parse(out.text())).toMatchObject({ conversations: 1, messagesSeen: 1, recorded: 1, inboundRecorded: 1 });

    const again = output();
    await runSync(await syncSettings({ stateDir }, env), { out: again.stream, logger: silent });
    expect(again.text()).toMatch(/^sync: 1 conversation\(s\) changed since .+; 0 message\(s\) read, 0 new recorded \(0 inbound\)\nnext sync starts from /);
  });

  it('stops with exit code 3 and one sentence when the token is refused', async () => {
    const settings = await syncSettings({ stateDir }, { OUTREACH_TOKEN: 'wrong', OUTREACH_BASE_URL: sim.url });
    const err = await runSync(settings, { out: new PassThrough(), logger: silent }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(userErrorExitCode(err as AppError)).toBe(ExitCode.aborted);
    expect((err as AppError).message).toMatch(/^the token was refused \(401\).*progress so far is kept/);
  });

  it('refuses an unreadable --since before contacting the platform', async () => {
    await expect(syncSettings({ since: 'soon' }, { OUTREACH_TOKEN: 't', OUTREACH_BASE_URL: sim.url })).rejects.toThrow(
      '--since "soon" is not a date-time; write it as 2025-03-01T00:00:00Z',
    );
  });
});
