import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, parseCsv, type Campaign } from '../helpers/campaign.js';
import { cli as runCli } from '../helpers/in-process.js';

let c: Campaign;
let sim: RunningSimulator | undefined;

afterEach(async () => {
  await sim?.close();
  sim = undefined;
  await c?.cleanup();
});

const offline = (job: string, stateDir: string, ...more: string[]) =>
  runCli(['plan', job, '--offline', '--channel-type', 'wba', '--state-dir', stateDir, ...more]);

describe('outreach plan', () => {
  it('prints rows, rejects by reason, planned actions and examples, writes rejects.csv, sends nothing', async () => {
    c = await campaign({ rows: 10, bad: 2 });
    const r = await offline(c.jobFile, c.stateDir);

    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/rows read\s+12/);
    expect(r.stdout).toMatch(/rejected\s+2/);
    expect(r.stdout).toMatch(/phone_invalid\s+2/);
    expect(r.stdout).toMatch(/planned\s+10/);
    expect(r.stdout).toMatch(/template\s+10/);
    expect(r.stdout).toContain('+5511970000000 (line 2) template: template promo_bf (pt_BR) {{1}}="Ana 0", {{2}}="BF0"');
    expect(r.stdout).toContain('nothing was sent');
    const rejects = parseCsv(await readFile(path.join(c.stateDir, 'cli-test', 'rejects.csv'), 'utf8'));
    expect(rejects.map((x) => x.line)).toEqual(['12', '13']);
    expect(existsSync(path.join(c.stateDir, 'cli-test', 'checkpoint.jsonl'))).toBe(false);
  });

  it("rejects a contact whose placeholder is empty, keeping the row's original columns in rejects.csv", async () => {
    c = await campaign({ rows: 8, emptyCoupon: 1 });
    const r = await offline(c.jobFile, c.stateDir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/missing_variable:coupon\s+1/);
    const text = await readFile(path.join(c.stateDir, 'cli-test', 'rejects.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe('file,line,raw_phone,reason,detail,Phone,First name,coupon');
    const [reject] = parseCsv(text);
    expect(reject).toMatchObject({ line: '10', raw_phone: "'+55 11 95555-1000", reason: 'missing_variable:coupon', 'First name': 'NoCoupon 0', coupon: '' });
  });

  it('says to run the job first when status or report find no checkpoint (exit 2)', async () => {
    c = await campaign({ rows: 2 });
    for (const command of ['status', 'report']) {
      const r = await runCli([command, c.jobFile, '--state-dir', c.stateDir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/job "cli-test" has no state in .*: run `outreach run` first/);
    }
  });

  it('prints the same plan as one JSON object with --json', async () => {
    c = await campaign({ rows: 3 });
    const r = await offline(c.jobFile, c.stateDir, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ job: 'cli-test', rows: 3, contacts: 3, rejected: 0, planned_by_action: { template: 3 } });
  });

  it('refuses a broken job with one sentence per problem naming the JSON path, exit 2', async () => {
    c = await campaign({ rows: 1 });
    const job = JSON.parse(await readFile(c.jobFile, 'utf8'));
    job.message.template.language = 'ptBR';
    delete job.channel_id;
    job.chanel_id = 10;
    job.token = 'abc';
    await writeFile(c.jobFile, JSON.stringify(job));
    const r = await offline(c.jobFile, c.stateDir);

    expect(r.code).toBe(2);
    expect(r.stderr).toContain('message.template.language: "ptBR" is not of the form xx_XX, e.g. pt_BR');
    expect(r.stderr).toMatch(/unknown field "chanel_id"; did you mean "channel_id"\?/);
    expect(r.stderr).toMatch(/token: a token never goes in a job file/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('stops with exit 2 and the top reasons when too many rows are rejected', async () => {
    c = await campaign({ rows: 5, bad: 5 });
    const r = await offline(c.jobFile, c.stateDir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/5 of 10 rows rejected \(50\.0%\), more than limits\.max_reject_ratio 0\.2 \(phone_invalid 5\)/);
  });

  it('checks the template against the platform: one that is not approved is exit 2 naming what exists', async () => {
    sim = await startSimulator();
    c = await campaign({ rows: 2, job: { message: { template: { name: 'draft_offer', language: 'en_US', variables: {} } } } });
    const r = await runCli(['plan', c.jobFile], { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/draft_offer/);
    const calls = sim.state.requests.map((q) => `${q.method} ${q.path}`);
    expect(calls).toEqual(['GET /company/1/channels', 'GET /wba/templates']);
  });

  it('names the template placeholders when the job gives the wrong variables', async () => {
    sim = await startSimulator();
    c = await campaign({ rows: 2, job: { message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}' } } } } });
    const r = await runCli(['plan', c.jobFile], { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\{\{1\}\}, \{\{2\}\}/);
  });
});
