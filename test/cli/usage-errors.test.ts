import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cli } from '../helpers/in-process.js';

/** Runs the built CLI (npm run build first). */
describe('usage errors exit 2 with the error and one line of usage, never 1', () => {
  it('does so from the installed program too (a typo in a cron line)', async () => {
    const r = await runCli(['run', '--bogus', 'x.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: unknown option '--bogus'\nusage: outreach run [options] <job> (outreach run --help for more)\n");
  });

  it.each<[string, string[], string, string]>([
    ['run without a job', ['run'], "error: missing required argument 'job'", 'usage: outreach run [options] <job> (outreach run --help for more)'],
    ['plan without a job', ['plan'], "error: missing required argument 'job'", 'usage: outreach plan [options] <job> (outreach plan --help for more)'],
    ['resume without a job', ['resume'], "error: missing required argument 'job'", 'usage: outreach resume [options] <job> (outreach resume --help for more)'],
    ['an unknown option of run', ['run', '--bogus', 'x.json'], "error: unknown option '--bogus'", 'usage: outreach run [options] <job> (outreach run --help for more)'],
    [
      'an extra argument',
      ['run', 'a.json', 'b.json'],
      "error: too many arguments for 'run'. Expected 1 argument but got 2.",
      'usage: outreach run [options] <job> (outreach run --help for more)',
    ],
    ['an unknown command', ['bogus'], "error: unknown command 'bogus'", 'usage: outreach [options] [command] (outreach --help for more)'],
    ['an unknown option before any command', ['--bogus'], "error: unknown option '--bogus'", 'usage: outreach [options] [command] (outreach --help for more)'],
    [
      'an option missing its value',
      ['templates', '--base-url'],
      "error: option '--base-url <url>' argument missing",
      'usage: outreach templates [options] (outreach templates --help for more)',
    ],
    [
      'an option value its parser refuses',
      ['channels', '--company-id', 'x'],
      "error: option '--company-id <n>' argument 'x' is invalid. give a positive integer id",
      'usage: outreach channels [options] (outreach channels --help for more)',
    ],
    ['an unknown option of a long-running command', ['sim', '--bogus'], "error: unknown option '--bogus'", 'usage: outreach sim [options] (outreach sim --help for more)'],
  ])('%s', async (_what, args, error, usage) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${error}\n${usage}\n`);
    expect(r.stdout).toBe('');
  });

  it('still exits 0 for --help of a command and --version', async () => {
    expect((await runCli(['run', '--help'])).code).toBe(0);
    const version = await runCli(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });

  it('exits 2 for a job file with a __proto__ key, naming the field, before anything is sent', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'outreach-usage-'));
    try {
      const job = path.join(dir, 'job.json');
      await writeFile(
        job,
        '{"name":"bf","contacts":"c.csv","company_id":1,"channel_id":10,"message":{"text":"hi"},"rate":{"__proto__":{"per_second":999}}}',
      );
      const r = await runCli(['plan', job, '--offline', '--channel-type', 'wba']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('rate: unknown field "__proto__"; remove it');
      expect(r.stderr).not.toContain('    at ');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
