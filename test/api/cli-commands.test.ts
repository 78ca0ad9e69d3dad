import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerChannels } from '../../src/cli/commands/channels.js';
import { registerTemplates } from '../../src/cli/commands/templates.js';
import { AppError } from '../../src/app/index.js';
import { ExitCode, userErrorExitCode } from '../../src/cli/exit.js';
import { type RunningSimulator, startSimulator } from '../../src/sim/index.js';
import { closedPort } from './helpers.js';

let sim: RunningSimulator;
let dir: string;
let tokenFile: string;
let wrongTokenFile: string;

beforeAll(async () => {
  sim = await startSimulator();
  dir = await mkdtemp(path.join(tmpdir(), 'outreach-cli-'));
  tokenFile = path.join(dir, 'token');
  wrongTokenFile = path.join(dir, 'wrong');
  await writeFile(tokenFile, `${sim.token}\n`);
  await writeFile(wrongTokenFile, 'not-the-token\n');
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs one command in-process and returns what it printed to stdout. */
async function run(args: string[]): Promise<string> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => {} });
  registerChannels(program);
  registerTemplates(program);
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    await program.parseAsync(['node', 'outreach', ...args]);
  } finally {
    spy.mockRestore();
  }
  return out;
}

describe('outreach channels', () => {
  it('prints an aligned table of the channels', async () => {
    const out = await run(['channels', '--company-id', '1', '--base-url', sim.url, '--token-file', tokenFile]);
    expect(out.split('\n')).toEqual([
      'ID  TYPE      STATUS        NAME',
      '10  wba       active        Sales (WhatsApp Cloud)',
      '11  whatsapp  active        Support (WhatsApp)',
      '12  ww        active        Web session',
      '13  wba       inactive (0)  Old number',
      '',
    ]);
  });

  it('prints JSON with --json', async () => {
    const out = await run(['channels', '--company-id', '1', '--base-url', sim.url, '--token-file', tokenFile, '--json']);
    expect((JSON.parse(out) as { id: number }[]).map((c) => c.id)).toEqual([10, 11, 12, 13]);
  });

  it('turns a refused token into exit 3 with the documented sentence', async () => {
    const err = await run(['channels', '--company-id', '1', '--base-url', sim.url, '--token-file', wrongTokenFile]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ message: 'the token was refused (401): check OUTREACH_TOKEN or --token-file' });
    expect(userErrorExitCode(err as AppError)).toBe(ExitCode.aborted);
  });

  it('says which address could not be reached', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const err = await run(['channels', '--company-id', '1', '--base-url', url, '--token-file', tokenFile]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as Error).message).toBe(`cannot reach the platform at ${url} (ECONNREFUSED); check --base-url or OUTREACH_BASE_URL`);
  });

  it('refuses a company id that is not a positive integer', async () => {
    await expect(run(['channels', '--company-id', 'abc', '--base-url', sim.url])).rejects.toThrow('positive integer');
  });
});

describe('outreach templates', () => {
  it('lists approved templates with their placeholders', async () => {
    const out = await run(['templates', '--base-url', sim.url, '--token-file', tokenFile]);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+LANGUAGE\s+CATEGORY\s+STATUS\s+VARS\s+PLACEHOLDERS$/);
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/))).toEqual([
      ['appointment_reminder', 'en_US', 'UTILITY', 'APPROVED', '3', '{{1}} {{2}} {{3}}'],
      ['order_update', 'es_ES', 'UTILITY', 'APPROVED', '3', '{{1}} {{2}} {{3}}'],
      ['promo_bf', 'es_MX', 'MARKETING', 'APPROVED', '2', '{{1}} {{2}}'],
      ['promo_bf', 'pt_BR', 'MARKETING', 'APPROVED', '2', '{{1}} {{2}}'],
      ['welcome', 'en_US', 'UTILITY', 'APPROVED', '1', '{{1}}'],
      ['welcome', 'pt_BR', 'UTILITY', 'APPROVED', '1', '{{1}}'],
    ]);
  });

  it('lists every status with --all, as JSON with placeholders', async () => {
    const out = await run(['templates', '--all', '--json', '--base-url', sim.url, '--token-file', tokenFile]);
    const templates = JSON.parse(out) as { name: string; status: string; placeholders: string[] }[];
    expect(templates.map((t) => `${t.name}:${t.status}`)).toContain('draft_offer:PENDING');
    expect(templates.map((t) => `${t.name}:${t.status}`)).toContain('old_promo:REJECTED');
    expect(templates.find((t) => t.name === 'promo_bf')?.placeholders).toEqual(['1', '2']);
  });
});
