import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { cli } from '../helpers/in-process.js';
import { bench, phone, type Bench } from './helpers.js';

let b: Bench;
beforeEach(async () => {
  b = await bench();
});
afterEach(async () => {
  await b.close();
});

const env = () => ({ env: { OUTREACH_BASE_URL: b.sim.url, OUTREACH_TOKEN: b.sim.token, OUTREACH_STATE_DIR: b.stateDir } });

/** A whole-hour zone where it is about noon now (Etc/GMT-3 is UTC+3), so a window a few seconds ahead stays within the day. */
function noonZone(): { zone: string; local: (ms: number) => string } {
  const k = 12 - new Date().getUTCHours();
  const zone = k === 0 ? 'UTC' : k > 0 ? `Etc/GMT-${k}` : `Etc/GMT+${-k}`;
  const local = (ms: number) => new Date(ms + k * 3_600_000).toISOString().slice(11, 19);
  return { zone, local };
}

describe('outreach suppress', () => {
  it('adds phones normalised to E.164, lists them, imports a file, and removes them', async () => {
    const add = await cli(['suppress', 'add', '+55 11 98765-4321', '(11) 98765-4322', '--default-country', 'BR', '--reason', 'asked by phone'], env());
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/suppressed 2 phone\(s\)/);

    await writeFile(path.join(b.dir, 'optouts.csv'), 'Nome;Telefone\nAna;11987654323\nBia;+5511987654321\nCris;12\n');
    const imported = await cli(['suppress', 'import', path.join(b.dir, 'optouts.csv'), '--default-country', 'BR'], env());
    expect(imported.code).toBe(1);
    expect(imported.stdout).toMatch(/1 phone\(s\) suppressed, 1 already on the list, 1 line\(s\) without a usable number/);
    expect(imported.stdout).toMatch(/line 4: "12"/);
    await writeFile(path.join(b.dir, 'plain.txt'), '+5511987654324\n\n+5511987654325\n');
    expect((await cli(['suppress', 'import', path.join(b.dir, 'plain.txt')], env())).code).toBe(0);

    const list = await cli(['suppress', 'list', '--json'], env());
    const entries = JSON.parse(list.stdout) as Array<{ phone: string; source: string; reason: string }>;
    expect(entries.map((e) => [e.phone, e.source])).toEqual([
      ['+5511987654321', 'manual'],
      ['+5511987654322', 'manual'],
      ['+5511987654323', 'import'],
      ['+5511987654324', 'import'],
      ['+5511987654325', 'import'],
    ]);
    expect((await cli(['suppress', 'list'], env())).stdout).toMatch(/\+5511987654321 +manual +\S+ +asked by phone/);

    const removed = await cli(['suppress', 'remove', '+5511987654321', '+5511987654399'], env());
    expect(removed.stdout).toMatch(/removed 1 phone\(s\)[\s\S]*\+5511987654399 was not on the list/);
    expect(JSON.parse((await cli(['suppress', 'list', '--json'], env())).stdout)).toHaveLength(4);
  });

  it('reads a number without its country code with the default_country of the job --job names', async () => {
    const jobFile = await b.job('bf', [{ phone: phone(0) }], { default_country: 'BR' });
    const add = await cli(['suppress', 'add', '(11) 98765-4321', '--job', jobFile], env());
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    await writeFile(path.join(b.dir, 'national.txt'), '11 98765-4322\n');
    expect((await cli(['suppress', 'import', path.join(b.dir, 'national.txt'), '--job', jobFile], env())).code).toBe(0);
    const listed = JSON.parse((await cli(['suppress', 'list', '--json', '--job', jobFile], env())).stdout) as Array<{ phone: string }>;
    expect(listed.map((e) => e.phone)).toEqual(['+5511987654321', '+5511987654322']);
    const removed = await cli(['suppress', 'remove', '11987654321', '--job', jobFile], env());
    expect(removed.stdout).toMatch(/removed 1 phone/);
    // The flag still wins over the job's country.
    const pt = await cli(['suppress', 'add', '912 345 678', '--job', jobFile, '--default-country', 'PT'], env());
    expect(pt.stdout).toMatch(/suppressed 1 phone/);
  });

  it('refuses a number it cannot read, naming it, and sends nothing to the list', async () => {
    const bad = await cli(['suppress', 'add', '+5511987654321', '98765'], env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"98765" has no country code; write it as \+<country code><number> or pass --default-country with its country \(e\.g\. BR\)\n$/);
    expect(bad.stderr).not.toContain('default_country in the job');
    expect(JSON.parse((await cli(['suppress', 'list', '--json'], env())).stdout)).toEqual([]);
  });
});

describe('run and status with suppressed and deferred contacts (command line)', () => {
  it('skips the suppressed contact, defers the one outside its window, exits 0, and says how many, why and when', async () => {
    const today = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][new Date().getUTCDay()];
    const otherDays = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].filter((d) => d !== today);
    const jobFile = await b.job('window', [{ phone: phone(0), tz: 'UTC' }, { phone: phone(1), tz: 'UTC' }, { phone: phone(2), tz: 'Asia/Tokyo' }], {
      columns: { timezone: 'tz' },
      // Closed all day today in UTC; Tokyo's own day may differ, so its contact is not asserted on.
      send_window: { from: '00:00', to: '24:00', days: otherDays, default_timezone: 'UTC' },
      limits: { daily_unique_recipients: 250 },
    });
    expect((await cli(['suppress', 'add', phone(1)], env())).code).toBe(0);

    const plan = await cli(['plan', jobFile], env());
    expect(plan.stdout).toMatch(/defer:quiet_hours/);
    expect(plan.stdout).toMatch(/skip:suppressed +1/);
    expect(plan.stdout).toMatch(/ 0 contacts fell back to default_timezone UTC/);

    const run = await cli(['run', jobFile, '--no-progress'], env());
    expect(run.code).toBe(0);
    // The earliest deferral is shown in its own zone: UTC's, or Tokyo's when Tokyo's next open day starts first (around midnight UTC).
    expect(run.stdout).toMatch(/\d deferred: quiet_hours until \S+ \d\d:\d\d (UTC|Asia\/Tokyo)/);
    expect(b.started().has(phone(0))).toBe(false);
    expect(b.started().has(phone(1))).toBe(false);

    const status = await cli(['status', jobFile], env());
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/deferred +\d/);
    expect(status.stdout).toMatch(/quiet_hours until/);
    expect(status.stdout).toMatch(/messaging limit: \d+ of 250 left in the rolling 24 hours/);
    const json = JSON.parse((await cli(['status', jobFile, '--json'], env())).stdout);
    expect(json.messaging).toMatchObject({ limit: 250 });
    expect(json.deferred[0]).toMatchObject({ reason: 'quiet_hours' });
    expect(['UTC', 'Asia/Tokyo']).toContain(json.deferred[0].zone);
  });

  it('run --wait with a window opening a few seconds ahead sends the deferred contacts when it opens', async () => {
    const { zone, local } = noonZone();
    const jobFile = await b.job('soon', [{ phone: phone(0, 1) }, { phone: phone(1, 1) }, { phone: phone(2, 1) }], {
      send_window: { from: local(Date.now() + 8000), to: '23:00', timezone: zone },
    });
    const started = Date.now();
    const run = await cli(['run', jobFile, '--no-progress', '--wait'], env());
    expect(run.code).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(1500);
    expect(run.stderr).toMatch(/waiting: 3 deferred: quiet_hours until \d\d:\d\d(:\d\d)? Etc|waiting: 3 deferred: quiet_hours until \d\d:\d\d UTC/);
    expect(b.started().size).toBe(3);
    expect(run.stdout).toMatch(/sent +3/);
    expect(run.stdout).not.toMatch(/deferred:/);
  }, 30_000);

  it('SIGINT during the wait ends it cleanly: the summary, the contacts still deferred, exit 0', async () => {
    const { zone, local } = noonZone();
    const jobFile = await b.job('later', [{ phone: phone(0, 2) }], { send_window: { from: local(Date.now() + 3_600_000), to: '23:00', timezone: zone } });
    const child = spawn(process.execPath, [cliPath, 'run', jobFile, '--no-progress', '--wait'], { env: { ...process.env, ...env().env } });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise((r) => child.once('exit', r));
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), stderr.includes('waiting:') && resolve()));
      void exited.then(() => resolve());
    });
    child.kill('SIGINT');
    const code = await exited;
    clearTimeout(guard);
    expect(code).toBe(0);
    expect(stderr).toMatch(/\d{4}-\d\d-\d\dT\S+ waiting: 1 deferred: quiet_hours/);
    expect(stderr).toMatch(/stopped waiting \(nothing was in flight\): 1 deferred/);
    expect(stdout).toMatch(/1 deferred: quiet_hours until/);
    expect(b.started().size).toBe(0);
  }, 30_000);
});
