import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../src/cli/exit.js';
import { runWebhook, webhookSettings } from '../../src/cli/webhook-session.js';

const SECRET = 'whsec_service';
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'outreach-webhook-service-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the webhook receiver as a service records into the state it is told', () => {
  it("records into the runs' store with no flag: the account's store of this user, where every job file's runs keep their state", async () => {
    const settings = await webhookSettings({ port: '0', host: '127.0.0.1' }, { OUTREACH_WEBHOOK_SECRET: SECRET, HOME: dir });
    expect(settings.store).toEqual({ kind: 'folder', path: path.join(dir, '.local', 'state', 'outreach'), filesDir: path.join(dir, '.local', 'state', 'outreach') });
    const err = await webhookSettings({ port: '0', host: '127.0.0.1', company: 'one' }, { OUTREACH_WEBHOOK_SECRET: SECRET }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(ExitCode.invalid);
    expect((await webhookSettings({ port: '0', host: '127.0.0.1', company: '2' }, { OUTREACH_WEBHOOK_SECRET: SECRET })).company).toBe(2);
  });

  it('takes the state from --state-dir, OUTREACH_STATE_DIR, --store or OUTREACH_STORE', async () => {
    const env = { OUTREACH_WEBHOOK_SECRET: SECRET };
    expect((await webhookSettings({ port: '0', host: '127.0.0.1', stateDir: dir }, env)).store).toEqual({ kind: 'folder', path: dir, filesDir: dir });
    expect((await webhookSettings({ port: '0', host: '127.0.0.1' }, { ...env, OUTREACH_STATE_DIR: dir })).store).toEqual({ kind: 'folder', path: dir, filesDir: dir });
    const url = 'postgres://outreach:pw@db.internal:5432/outreach';
    expect((await webhookSettings({ port: '0', host: '127.0.0.1' }, { ...env, OUTREACH_STORE: url })).store).toMatchObject({ kind: 'postgres', url });
    expect((await webhookSettings({ port: '0', host: '127.0.0.1', store: url }, env)).store).toMatchObject({ kind: 'postgres', url });
  });

  it('says at start where it listens (127.0.0.1 unless --host says otherwise) and which state it uses', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    const stop = new AbortController();
    const settings = await webhookSettings({ port: '0', host: '127.0.0.1', stateDir: dir }, { OUTREACH_WEBHOOK_SECRET: SECRET });
    const running = runWebhook(settings, { out, logger: pino({ level: 'silent' }), stop: stop.signal });
    while (!text.includes('press Ctrl+C')) await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    await running;
    expect(text).toMatch(new RegExp(`^webhook receiver listening on http://127\\.0\\.0\\.1:\\d+\\nstate: ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`));
  });
});
