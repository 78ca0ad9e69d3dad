import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { parseCsv } from '../helpers/campaign.js';
import { repoRoot } from '../helpers/cli.js';
import { cli } from '../helpers/in-process.js';

let sim: RunningSimulator;
let dir: string;
afterEach(async () => {
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a mixed Brazilian and Mexican list (the country column and message variants, end to end)', () => {
  it('sends each Mexican number as +52 with the es_MX template and each Brazilian one as +55 with pt_BR, and plan shows both', async () => {
    sim = await startSimulator({ seed: 14 });
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-latam-send-'));
    const job = JSON.parse(await readFile(path.join(repoRoot, 'jobs/latam-mixed.json'), 'utf8')) as { message: { variants: Array<{ name: string }> } };
    // The Mexican variant only: every Brazilian gets the default pt_BR (the "spanish" variant is checked apart, below).
    const mexicoOnly = { ...job, message: { ...job.message, variants: job.message.variants.filter((v) => v.name === 'mexico') } };
    const jobFile = path.join(dir, 'latam.json');
    await writeFile(jobFile, JSON.stringify({ ...mexicoOnly, contacts: path.join(repoRoot, 'samples/latam-contacts.csv'), rate: { per_second: 500 }, $schema: undefined }));
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: path.join(dir, 'state') };

    const plan = await cli(['plan', jobFile, '--json'], { env });
    expect(plan.code).toBe(0);
    const planned = JSON.parse(plan.stdout) as { by_country: Record<string, number>; by_variant: Record<string, unknown>; rejected_by_reason: Record<string, number>; examples: Array<{ variant?: string }> };
    expect(Object.keys(planned.by_country).sort()).toEqual(['BR', 'MX']);
    expect(Object.keys(planned.by_variant)).toEqual(expect.arrayContaining(['default', 'mexico']));
    expect(planned.examples.map((e) => e.variant)).toEqual(expect.arrayContaining(['default', 'mexico']));
    expect(planned.rejected_by_reason).toEqual({ phone_country_mismatch: 1 });
    const text = await cli(['plan', jobFile], { env });
    expect(text.stdout).toMatch(/by country\s+BR \d+, MX \d+|by country\s+MX \d+, BR \d+/);
    expect(text.stdout).toMatch(/by variant\n\s+default\s+template \d+\n\s+mexico\s+template \d+|by variant\n\s+mexico\s+template \d+\n\s+default\s+template \d+/);

    const run = await cli(['run', jobFile, '--no-progress'], { env });
    expect(run.code).toBe(0);
    const starts = sim.state.requests.filter((r) => r.endpoint === 'POST /chat/conversations/start-whatsapp');
    expect(starts).toHaveLength(29);
    const report = parseCsv(await readFile(path.join(dir, 'state', 'latam-mixed', 'report.csv'), 'utf8'));
    const variantOf = new Map(report.map((row) => [row.phone, row.variant]));
    const sent = starts.map((request) => request.body as { phone: string; language: string; template_name: string });
    expect(sent.every((body) => body.template_name === 'promo_bf')).toBe(true);
    const mexican = sent.filter((body) => body.phone.startsWith('+52'));
    const brazilian = sent.filter((body) => body.phone.startsWith('+55'));
    expect(mexican.length + brazilian.length).toBe(29);
    expect(mexican.length).toBeGreaterThan(5);
    for (const body of mexican) expect([body.language, variantOf.get(body.phone)]).toEqual(['es_MX', 'mexico']);
    for (const body of brazilian) expect([body.language, variantOf.get(body.phone)]).toEqual(['pt_BR', 'default']);

    const rejects = parseCsv(await readFile(path.join(dir, 'state', 'latam-mixed', 'rejects.csv'), 'utf8'));
    expect(rejects.map((r) => r.reason)).toEqual(['phone_country_mismatch']);
  });

  it('gives the "spanish" variant to a Brazilian number whose language column says es_AR', async () => {
    sim = await startSimulator({ seed: 14 });
    dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-latam-send-'));
    const job = JSON.parse(await readFile(path.join(repoRoot, 'jobs/latam-mixed.json'), 'utf8')) as Record<string, unknown>;
    const jobFile = path.join(dir, 'latam.json');
    await writeFile(jobFile, JSON.stringify({ ...job, contacts: path.join(repoRoot, 'samples/latam-contacts.csv'), rate: { per_second: 500 }, $schema: undefined }));
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: path.join(dir, 'state') };
    expect((await cli(['run', jobFile, '--no-progress'], { env })).code).toBe(0);
    const report = parseCsv(await readFile(path.join(dir, 'state', 'latam-mixed', 'report.csv'), 'utf8'));
    const spanish = report.filter((row) => row.variant === 'spanish');
    expect(spanish.map((row) => row.phone?.slice(0, 3))).toEqual(['+55']);
    const start = sim.state.requests.find((r) => r.endpoint === 'POST /chat/conversations/start-whatsapp' && (r.body as { phone: string }).phone === spanish[0]?.phone);
    expect((start?.body as { language: string }).language).toBe('es_MX');
  });
});
