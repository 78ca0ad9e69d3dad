/**
 * A job on several machines is the reason the database store exists: its job file sits at another path on
 * each host, and it is still one job (its company and its name), continued from wherever it is run; and
 * an earlier version's `.outreach/` beside a job file is taken into the database as into a folder.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { cli } from '../helpers/in-process.js';
import { schemaUrl } from '../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');
let sim: RunningSimulator;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'outreach-account-pg-'));
});
afterEach(async () => {
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

const phone = (i: number) => `+55119${String(51_000_000 + i).padStart(8, '0')}`;
const PHONES = Array.from({ length: 12 }, (_, i) => phone(i));

async function job(folder: string): Promise<string> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'list.csv'), `phone,name,coupon\n${PHONES.map((p, i) => `${p},Ana ${i},BF${i}`).join('\n')}\n`);
  const file = path.join(folder, 'number-1.json');
  await writeFile(
    file,
    JSON.stringify({
      name: 'number-1',
      contacts: 'list.csv',
      company_id: 1,
      channel_id: 10,
      message: { template: { name: 'promo_bf', language: 'pt_BR', variables: { '1': '{{name}}', '2': '{{coupon}}' } } },
      rate: { per_second: 100, concurrency: 4 },
      retry: { attempts: 1, backoff_ms: 1 },
      limits: { max_failure_ratio: 1 },
    }),
  );
  return file;
}

function starts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const q of sim.state.requests) {
    if (q.method !== 'POST' || !q.path.endsWith('/start-whatsapp')) continue;
    const p = (q.body as { phone?: string } | undefined)?.phone;
    if (p !== undefined && q.status === 200) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  return counts;
}

describe.skipIf(!pgUrl)('one job on a database store, its file at another path on each host', () => {
  it('is continued by resume from the other path: not refused, nobody sent twice, and status says where it was started and where it runs', async () => {
    sim = await startSimulator({ seed: 33, faults: { failRate: 1 } });
    const url = schemaUrl(pgUrl);
    const env = { env: { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STORE: url } };
    const a = await job(path.join(dir, 'a', 'jobs'));
    const b = await job(path.join(dir, 'b', 'jobs'));

    const first = await cli(['run', a, '--no-progress'], env);
    expect(first.code).toBe(1);
    const failed = JSON.parse((await cli(['status', a, '--json'], env)).stdout) as { byStatus: Record<string, number> };
    expect(failed.byStatus.failed).toBe(12);
    for (const p of PHONES) expect(sim.state.messageCount(p)).toBe(0);

    sim.state.setFaults({ failRate: 0 });
    const resumed = await cli(['resume', b, '--no-progress'], env);
    expect(resumed.stderr).not.toMatch(/started by another job file|sends another message/);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`continuing job number-1 started from host ${hostname()}: ${a}`);
    // Each failed contact healed once, on its known conversation: one message each.
    for (const p of PHONES) expect(sim.state.messageCount(p), p).toBe(1);
    // The files for people of each host are beside its own job file.
    expect(existsSync(path.join(dir, 'a', 'jobs', 'number-1', 'report.csv'))).toBe(true);
    expect(existsSync(path.join(dir, 'b', 'jobs', 'number-1', 'report.csv'))).toBe(true);

    const status = JSON.parse((await cli(['status', b, '--json'], env)).stdout) as { byStatus: Record<string, number>; started_from: unknown };
    expect(status.byStatus).toMatchObject({ sent: 12, failed: 0 });
    expect(status.started_from).toEqual({ host: hostname(), file: a });
    // A plan from a third path says it continues the job, and would send nobody.
    const third = path.join(dir, 'c', 'jobs');
    await cp(path.join(dir, 'b', 'jobs'), third, { recursive: true });
    const plan = JSON.parse((await cli(['plan', path.join(third, 'number-1.json'), '--json'], env)).stdout) as { would_send_now: number; continues_job_started_from: unknown };
    expect(plan).toMatchObject({ would_send_now: 0, continues_job_started_from: { host: hostname(), file: a } });
  });

  it("takes an earlier version's .outreach/ beside the job file into the database once, and sends nobody in it again", async () => {
    sim = await startSimulator({ seed: 34 });
    const url = schemaUrl(pgUrl);
    const folder = path.join(dir, 'jobs');
    const file = await job(folder);
    const old = path.join(folder, '.outreach');
    // The earlier version kept its state beside the job file: a folder store there, as today's layout of --state-dir.
    const base = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token };
    expect((await cli(['run', file, '--no-progress', '--state-dir', old], { env: base })).code).toBe(0);
    expect(starts().size).toBe(12);

    const status = await cli(['status', file, '--json'], { env: { ...base, OUTREACH_STORE: url } });
    expect(status.code).toBe(0);
    expect(status.stderr).toMatch(/took .*jobs\/\.outreach, the state folder an earlier version kept beside the job file, into the account's store postgres:\/\/.*: 1 job \(number-1\)/);
    expect(JSON.parse(status.stdout)).toMatchObject({ byStatus: { sent: 12 } });
    expect(await readFile(path.join(old, 'MOVED.txt'), 'utf8')).toMatch(/^into: postgres:\/\//m);
    const again = await cli(['run', file, '--no-progress'], { env: { ...base, OUTREACH_STORE: url } });
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('took');
    for (const p of PHONES) expect(starts().get(p)).toBe(1);
  });
});
