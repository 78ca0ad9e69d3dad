/**
 * One business, one memory: who was messaged, who said stop, and which job is which belong to the
 * company and the job's name, never to a folder or a path. Each test runs the command line against
 * the simulator with the account's default store (a home of the test's own: no flag names a store).
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { cli } from '../helpers/in-process.js';
import { parseCsv } from '../helpers/campaign.js';

let sim: RunningSimulator;
let dir: string;
let home: string;

beforeEach(async () => {
  sim = await startSimulator({ seed: 31 });
  dir = await mkdtemp(path.join(tmpdir(), 'outreach-account-'));
  home = path.join(dir, 'home');
});
afterEach(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** A valid Brazilian mobile for row i. */
const phone = (i: number) => `+55119${String(50_000_000 + i).padStart(8, '0')}`;
const PHONES = [0, 1, 2, 3, 4].map(phone);

/** The environment of a command: the simulator, and the user's home (the account's store is under it). */
const env = (s: RunningSimulator = sim) => ({ env: { OUTREACH_BASE_URL: s.url, OUTREACH_TOKEN: s.token, XDG_STATE_HOME: path.join(home, 'state'), HOME: home } });
const STORE = () => path.join(home, 'state', 'outreach');

/** Writes `<folder>/<file>.json` (the promo_bf template, its name and fields overridable) and its list `<folder>/list.csv`. */
async function job(folder: string, file: string, fields: Record<string, unknown> = {}, phones: readonly string[] = PHONES): Promise<string> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'list.csv'), `phone,name,coupon\n${phones.map((p, i) => `${p},Ana ${i},BF${i}`).join('\n')}\n`);
  const file_ = path.join(folder, `${file}.json`);
  await writeFile(
    file_,
    JSON.stringify({
      name: 'bf',
      contacts: 'list.csv',
      company_id: 1,
      channel_id: 10,
      message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
      rate: { per_second: 100, concurrency: 4 },
      retry: { attempts: 1, backoff_ms: 1 },
      ...fields,
    }),
  );
  return file_;
}

/** How many start-whatsapp requests the simulator received for each phone. */
function starts(s: RunningSimulator = sim): Map<string, number> {
  const counts = new Map<string, number>();
  for (const q of s.state.requests) {
    if (q.method !== 'POST' || !q.path.endsWith('/start-whatsapp')) continue;
    const p = (q.body as { phone?: string } | undefined)?.phone;
    if (p !== undefined) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  return counts;
}

describe('a copy of a job in another folder is the same job', () => {
  it('messages nobody again, the opted-out neither, and says it continues the job started from the first file', async () => {
    const first = await job(path.join(dir, 'a'), 'bf');
    expect((await cli(['suppress', 'add', PHONES[4] as string, '--job', first], env())).code).toBe(0);
    const run = await cli(['run', first, '--no-progress'], env());
    expect(run.code).toBe(0);
    expect(starts()).toEqual(new Map(PHONES.slice(0, 4).map((p) => [p, 1])));
    // The files for people are beside the job file, in a folder named after the job.
    expect(existsSync(path.join(dir, 'a', 'bf', 'report.csv'))).toBe(true);
    expect(existsSync(path.join(dir, 'a', '.outreach'))).toBe(false);

    const copia = path.join(dir, 'copia');
    await cp(path.join(dir, 'a'), copia, { recursive: true });
    await rm(path.join(copia, 'bf'), { recursive: true });
    const copy = path.join(copia, 'bf.json');
    const plan = await cli(['plan', copy, '--json'], env());
    expect(plan.code).toBe(0);
    const planned = JSON.parse(plan.stdout) as { would_send_now: number; continues_job_started_from?: { host: string; file: string }; already: Record<string, number> };
    expect(planned.would_send_now).toBe(0);
    expect(planned.continues_job_started_from).toEqual({ host: hostname(), file: first });
    expect(planned.already).toMatchObject({ sent: 4, skipped: 1 });
    expect((await cli(['plan', copy], env())).stdout).toContain(`continuing job bf started from host ${hostname()}: ${first}`);

    const again = await cli(['run', copy, '--no-progress'], env());
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`continuing job bf started from host ${hostname()}: ${first}`);
    expect(starts()).toEqual(new Map(PHONES.slice(0, 4).map((p) => [p, 1])));
    // resume from the other path is not refused either, and still sends nobody
    expect((await cli(['resume', copy, '--no-progress'], env())).code).toBe(0);
    expect(starts().get(PHONES[0] as string)).toBe(1);

    const status = await cli(['status', copy, '--json'], env());
    const counts = JSON.parse(status.stdout) as { byStatus: Record<string, number>; started_from: { host: string; file: string } };
    expect(counts.byStatus).toMatchObject({ sent: 4, skipped: 1 });
    expect(counts.started_from).toEqual({ host: hostname(), file: first });
    expect((await cli(['status', copy], env())).stdout).toContain(`started from host ${hostname()}: ${first}`);
    // The copy's report went beside the copy.
    expect(existsSync(path.join(copia, 'bf', 'report.csv'))).toBe(true);
  });

  it('refuses the same name with another message, naming both files, and --force-changed says only what changed', async () => {
    const first = await job(path.join(dir, 'a'), 'bf');
    expect((await cli(['run', first, '--no-progress'], env())).code).toBe(0);
    const other = await job(path.join(dir, 'b'), 'bf', { message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': 'OTHER' } } } });
    const refused = await cli(['run', other, '--no-progress'], env());
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`job "bf" was started from host ${hostname()}: ${first}, and host ${hostname()}: ${other} sends another message under the same name`);
    expect(refused.stderr).toContain('message.template.variables["2"] "{{coupon}}" → "OTHER"');
    const forced = await cli(['run', other, '--no-progress', '--force-changed'], env());
    expect(forced.code).toBe(0);
    const log = await readFile(path.join(dir, 'b', 'bf', 'run.log'), 'utf8');
    expect(log).toMatch(/message content changed; going on with --force-changed/);
    expect(log).not.toMatch(/job file .* →/);
  });
});

describe('the same message is never sent twice to one person', () => {
  it('a renamed copy skips everyone who got this very message: already_sent, named in plan, run, status and report, and final', async () => {
    const first = await job(path.join(dir, 'a'), 'bf');
    expect((await cli(['run', first, '--no-progress'], env())).code).toBe(0);
    const copy = await job(path.join(dir, 'a'), 'bf-copia', { name: 'bf-copia' });

    const plan = await cli(['plan', copy], env());
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/skip:already_sent +5/);
    expect(plan.stdout).toMatch(/5 contacts of this list already got this very message from job bf \(5, last [^)]+\): skipped already_sent/);
    const json = JSON.parse((await cli(['plan', copy, '--json'], env())).stdout) as { would_send_now: number; messaged_by_other_jobs: { same_message: { contacts: number; by_job: Array<{ job: string }> } } };
    expect(json.would_send_now).toBe(0);
    expect(json.messaged_by_other_jobs.same_message).toMatchObject({ contacts: 5, by_job: [{ job: 'bf', contacts: 5 }] });

    const run = await cli(['run', copy, '--no-progress'], env());
    expect(run.code).toBe(0);
    for (const p of PHONES) expect(starts().get(p)).toBe(1);
    const status = JSON.parse((await cli(['status', copy, '--json'], env())).stdout) as { byStatus: Record<string, number> };
    expect(status.byStatus).toMatchObject({ skipped: 5, sent: 0, deferred: 0 });
    const rows = parseCsv(await readFile(path.join(dir, 'a', 'bf-copia', 'report.csv'), 'utf8'));
    expect(rows).toHaveLength(5);
    for (const r of rows) {
      expect(r.status).toBe('skipped');
      expect(r.error).toMatch(/^job bf sent this message on \d{4}-\d\d-\d\d$/);
    }
    // Final: a later run sends them nothing either (nothing is deferred to a later time).
    expect((await cli(['run', copy, '--no-progress'], env())).code).toBe(0);
    for (const p of PHONES) expect(starts().get(p)).toBe(1);
  });

  it('sends it again only when the job says limits.repeat_message, and plan warns', async () => {
    const first = await job(path.join(dir, 'a'), 'bf');
    expect((await cli(['run', first, '--no-progress'], env())).code).toBe(0);
    const again = await job(path.join(dir, 'a'), 'bf-again', { name: 'bf-again', limits: { repeat_message: true, min_hours_between_messages: 0 } });
    const plan = await cli(['plan', again], env());
    expect(plan.stdout).toContain('warning: limits.repeat_message is true: a contact another job of this company already sent this very message gets it again');
    expect(plan.stdout).toMatch(/would send now +5/);
    expect((await cli(['run', again, '--no-progress'], env())).code).toBe(0);
    for (const p of PHONES) expect(starts().get(p)).toBe(2);
  });

  it('another message lately is the frequency cap: deferred recently_messaged until then', async () => {
    const first = await job(path.join(dir, 'a'), 'bf');
    expect((await cli(['run', first, '--no-progress'], env())).code).toBe(0);
    const other = await job(path.join(dir, 'a'), 'natal', { name: 'natal', message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': 'NATAL' } } } });
    const plan = JSON.parse((await cli(['plan', other, '--json'], env())).stdout) as { planned_by_action: Record<string, number>; messaged_by_other_jobs: { contacts: number; same_message: { contacts: number } } };
    expect(plan.planned_by_action).toEqual({ 'defer:recently_messaged': 5 });
    expect(plan.messaged_by_other_jobs).toMatchObject({ contacts: 5, same_message: { contacts: 0 } });
  });
});

describe("an earlier version's .outreach folder beside a job file", () => {
  it('is taken into the account store once, under a lock, saying so in one line; nobody in it is messaged again', async () => {
    const folder = path.join(dir, 'jobs');
    const first = await job(folder, 'bf');
    const old = path.join(folder, '.outreach');
    // The layout an earlier version kept beside the job file: the state folder named there.
    expect((await cli(['suppress', 'add', PHONES[4] as string, '--state-dir', old], env())).code).toBe(0);
    expect((await cli(['run', first, '--no-progress', '--state-dir', old], env())).code).toBe(0);
    expect(starts().size).toBe(4);
    // An earlier version wrote no company and no message on its ledger and suppression lines.
    for (const file of ['ledger.jsonl', 'suppressions.jsonl']) {
      const lines = (await readFile(path.join(old, file), 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      await writeFile(path.join(old, file), `${lines.map(({ company: _c, message: _m, ...rest }) => JSON.stringify(rest)).join('\n')}\n`);
    }

    const status = await cli(['status', first, '--json'], env());
    expect(status.code).toBe(0);
    expect(status.stderr.trim().split('\n')).toHaveLength(1);
    expect(status.stderr).toMatch(/^outreach: took .*jobs\/\.outreach, the state folder an earlier version kept beside the job file, into the account's store .*: 1 job \(bf\), the suppression list, the record of who was messaged; the folder is kept as it was, marked moved \(.*MOVED\.txt\)/);
    expect(JSON.parse(status.stdout)).toMatchObject({ byStatus: { sent: 4, skipped: 1 } });
    expect(existsSync(path.join(old, 'MOVED.txt'))).toBe(true);
    expect(existsSync(path.join(old, 'bf', 'checkpoint.jsonl'))).toBe(true);
    expect(existsSync(path.join(STORE(), 'bf', 'checkpoint.jsonl'))).toBe(true);

    // Once: the next command says nothing of it, and the run sends nobody again.
    const run = await cli(['run', first, '--no-progress'], env());
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('took');
    expect(starts().size).toBe(4);
    for (const p of PHONES.slice(0, 4)) expect(starts().get(p)).toBe(1);

    // The taken ledger knows what each got (from the old journal): a renamed copy skips them already_sent; the suppressed one stays suppressed.
    const copy = await job(folder, 'bf-copia', { name: 'bf-copia' });
    const plan = JSON.parse((await cli(['plan', copy, '--json'], env())).stdout) as { planned_by_action: Record<string, number> };
    expect(plan.planned_by_action).toEqual({ 'skip:already_sent': 4, 'skip:suppressed': 1 });
  });
});

describe('two companies in one store', () => {
  it("never see each other's suppression list or record of who was messaged, even with one job name", async () => {
    const other = await startSimulator({ seed: 32, companyId: 2 });
    try {
      const one = await job(path.join(dir, 'c1'), 'promo', { name: 'promo', company_id: 1 });
      const two = await job(path.join(dir, 'c2'), 'promo', { name: 'promo', company_id: 2 });
      expect((await cli(['suppress', 'add', PHONES[0] as string, '--company', '1'], env())).code).toBe(0);
      expect((await cli(['run', one, '--no-progress'], env())).code).toBe(0);
      expect(starts().get(PHONES[0] as string)).toBeUndefined();
      expect(starts().size).toBe(4);

      // Company 2's job of the same name is its own: it sends everyone, the phone company 1 suppressed too.
      const plan = JSON.parse((await cli(['plan', two, '--json'], env(other))).stdout) as { would_send_now: number; continues_job_started_from?: unknown; messaged_by_other_jobs: { contacts: number } };
      expect(plan.would_send_now).toBe(5);
      expect(plan.continues_job_started_from).toBeUndefined();
      expect(plan.messaged_by_other_jobs.contacts).toBe(0);
      expect((await cli(['run', two, '--no-progress'], env(other))).code).toBe(0);
      expect(starts(other).size).toBe(5);
      expect(JSON.parse((await cli(['status', one, '--json'], env())).stdout)).toMatchObject({ byStatus: { sent: 4, skipped: 1 } });
      expect(JSON.parse((await cli(['status', two, '--json'], env(other))).stdout)).toMatchObject({ byStatus: { sent: 5, skipped: 0 } });

      // With two companies in the store, a list without a job or a company is refused, saying how to name it.
      const list = await cli(['suppress', 'list'], env());
      expect(list.code).toBe(2);
      expect(list.stderr).toMatch(/holds the jobs of companies 1, 2: say whose suppression list this is with --company N/);
      const c2 = JSON.parse((await cli(['suppress', 'list', '--json', '--company', '2'], env())).stdout) as unknown[];
      expect(c2).toEqual([]);
      const c1 = JSON.parse((await cli(['suppress', 'list', '--json', '--job', one], env())).stdout) as Array<{ phone: string }>;
      expect(c1.map((e) => e.phone)).toEqual([PHONES[0]]);
    } finally {
      await other.close();
    }
  });
});
