import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatTime, formatStamp } from '../../src/cli/format/time.js';
import { count, dateOrder, localeFromEnv, percent, readLocale } from '../../src/locale/people.js';
import { startSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { runCli } from '../helpers/cli.js';
import { cli } from '../helpers/in-process.js';

let c: Campaign | undefined;
afterEach(async () => {
  await c?.cleanup();
  c = undefined;
});

const T = Date.UTC(2026, 10, 28, 12, 0, 0); // Sat 28 Nov 2026, 09:00 in São Paulo

describe('the locale figures and times are written in', () => {
  it('is --locale, else LC_ALL, else LANG; C and POSIX name none', () => {
    expect(readLocale('pt_BR.UTF-8')).toBe('pt-BR');
    expect(readLocale('es_MX')).toBe('es-MX');
    expect(readLocale('C.UTF-8')).toBeUndefined();
    expect(readLocale('POSIX')).toBeUndefined();
    expect(readLocale('not a locale!')).toBeUndefined();
    expect(localeFromEnv({ LC_ALL: 'pt_BR.UTF-8', LANG: 'en_US.UTF-8' })).toBe('pt-BR');
    expect(localeFromEnv({ LC_ALL: '', LANG: 'en_US.UTF-8' })).toBe('en-US');
    expect(localeFromEnv({})).toBeUndefined();
    expect(dateOrder('pt-BR')).toBe('day_first');
    expect(dateOrder('en-US')).toBe('month_first');
  });

  it('writes pt-BR figures as pt-BR does: 4.521, 43,3%', () => {
    expect(count({ locale: 'pt-BR' }, 4521)).toBe('4.521');
    expect(percent({ locale: 'pt-BR' }, 0.4333)).toBe('43,3%');
    expect(count({ locale: undefined }, 4521)).toBe('4,521');
  });

  it('writes times in the locale and the zone, naming the zone', () => {
    const r = { locale: 'pt-BR', zone: 'America/Sao_Paulo' };
    expect(formatTime(T, r, T - 20 * 86_400_000)).toBe('28/11/2026, 09:00 America/Sao_Paulo');
    expect(formatTime(T, r, T - 3_600_000)).toBe('09:00 America/Sao_Paulo');
    expect(formatTime(T, r, T - 2 * 86_400_000)).toBe('sáb., 09:00 America/Sao_Paulo');
    expect(formatStamp(new Date(T + 3000).toISOString(), r)).toBe('28/11/2026, 09:00:03 America/Sao_Paulo');
    // No locale: year first, as before.
    expect(formatTime(T, 'America/Sao_Paulo', T - 20 * 86_400_000)).toBe('2026-11-28 09:00 America/Sao_Paulo');
  });
});

describe('the commands for people follow the locale; files for machines do not', () => {
  it('plan writes pt-BR figures with LANG=pt_BR.UTF-8 or --locale pt-BR, and its JSON stays as it is', async () => {
    c = await campaign({ rows: 1200 });
    const args = (...flags: string[]) => ['plan', c!.jobFile, '--offline', '--channel-type', 'wba', '--state-dir', c!.stateDir, ...flags];
    // In this process, as the command line reads its environment; the LANG of a process of its own once, end to end.
    const plan = (env: Record<string, string>, ...flags: string[]) => cli(args(...flags), { env });
    const plain = await plan({});
    expect(plain.stdout).toMatch(/rows read +1,200 /);
    const fromEnv = await runCli(args(), { env: { LANG: 'pt_BR.UTF-8' } });
    expect(fromEnv.stdout).toMatch(/rows read +1\.200 /);
    expect(fromEnv.stdout).toMatch(/planned +1\.200\n/);
    const fromFlag = await plan({ LANG: 'en_US.UTF-8' }, '--locale', 'pt-BR');
    expect(fromFlag.stdout).toMatch(/rows read +1\.200 /);
    const json = await plan({ LANG: 'pt_BR.UTF-8' }, '--json');
    expect(JSON.parse(json.stdout).rows).toBe(1200);

  }, 60_000);

  it("run's end, status and report.html write figures in the locale; report.csv is the same bytes either way", async () => {
    const sim = await startSimulator({ seed: 5 });
    try {
      c = await campaign({ rows: 5 });
      const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token, OUTREACH_STATE_DIR: c.stateDir };
      // In this process but for status, whose LC_ALL is that of a process of its own.
      const run = await cli(['run', c.jobFile, '--no-progress', '--locale', 'pt-BR'], { env });
      expect(run.stdout).toMatch(/time {8}\d+,\ds, 5 sent this run/);
      const status = await runCli(['status', c.jobFile], { env: { ...env, LC_ALL: 'pt_BR.UTF-8' } });
      expect(status.stdout).toContain('  replies 0 of 5 sent (0,0%)');
      expect(status.stdout).toMatch(/ {2}sent +5\n/);
      const report = async (more: Record<string, string>) => {
        expect((await cli(['report', c!.jobFile], { env: { ...env, ...more } })).code).toBe(0);
        return readFile(path.join(c!.stateDir, 'cli-test', 'report.csv'));
      };
      expect((await report({ LANG: 'pt_BR.UTF-8' })).equals(await report({}))).toBe(true);
      expect((await cli(['report', c.jobFile, '--format', 'html', '--locale', 'pt-BR'], { env })).code).toBe(0);
      expect(await readFile(path.join(c.stateDir, 'cli-test', 'report.html'), 'utf8')).toMatch(/>0,0%</);
    } finally {
      await sim.close();
    }
  });

  it('refuses a --locale that is not one (exit 2)', async () => {
    c = await campaign({ rows: 2 });
    const r = await cli(['plan', c.jobFile, '--offline', '--state-dir', c.stateDir, '--locale', 'klingon!']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--locale: "klingon!" is not a locale; give a language tag such as --locale pt-BR/);
  });
});

describe('the zone times are shown in', () => {
  it("is --tz, else TZ, else the job's default_timezone (a UTC server shows the campaign's zone), naming it", async () => {
    c = await campaign({ rows: 2, job: { default_timezone: 'America/Sao_Paulo', start_at: '2099-11-28T09:00:00-03:00' } });
    const plan = (env: Record<string, string>, ...flags: string[]) => runCli(['plan', c!.jobFile, '--offline', '--channel-type', 'wba', '--state-dir', c!.stateDir, ...flags], { env });
    expect((await plan({ TZ: '' })).stdout).toMatch(/start_at +2099-11-28 09:00 America\/Sao_Paulo: one instant for everyone/);
    expect((await plan({ TZ: 'UTC' })).stdout).toMatch(/start_at +2099-11-28 12:00 UTC: one instant/);
    expect((await plan({ TZ: 'UTC' }, '--tz', 'America/Manaus')).stdout).toMatch(/start_at +2099-11-28 08:00 America\/Manaus: one instant/);
  });
});
