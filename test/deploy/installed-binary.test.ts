import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';

const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let dir: string;
let prefix: string;
let packed: string[];

/** The environment of a machine that runs campaigns: no OUTREACH_* of the test's own. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OUTREACH_')));
}

/** The README's install path: `npm pack` of the checkout, then `npm install -g` of the tarball (here into a prefix of the test's own). */
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-global-'));
  prefix = path.join(dir, 'prefix');
  const { stdout } = await run(npm, ['pack', '--ignore-scripts', '--pack-destination', dir, '--json'], { cwd: repoRoot });
  const [info] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (!info) throw new Error(`npm pack printed no file: ${stdout}`);
  packed = info.files.map((f) => f.path);
  await run(npm, ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(dir, info.filename)], { cwd: dir, env: cleanEnv() });
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('installed as a program with npm install -g of the packed tarball', () => {
  it('packs what the installed binary reads: the built code, the example jobs and lists, and the job schema the jobs name', async () => {
    expect(packed).toContain('dist/src/cli/main.js');
    expect(packed).toContain('dist/bundle/run-cli.mjs');
    expect(packed).toContain('jobs/demo.json');
    expect(packed).toContain('samples/contacts.csv');
    // A campaign run in the checkout leaves its files for people in jobs/<job>/: they never go in the package.
    expect(packed.filter((p) => p.startsWith('jobs/') && !/^jobs\/[^/]+\.json$/.test(p))).toEqual([]);
    for (const job of packed.filter((p) => p.startsWith('jobs/'))) {
      const schema = (JSON.parse(await readFile(path.join(repoRoot, job), 'utf8')) as { $schema?: string }).$schema;
      if (schema !== undefined) expect(packed, `${job} names ${schema}`).toContain(path.posix.join(path.posix.dirname(job), schema));
    }
  });

  it('puts the binary at <prefix>/bin/outreach, and it runs from any folder', async () => {
    const bin = path.join(prefix, 'bin', 'outreach');
    expect((await stat(bin)).mode & 0o111).not.toBe(0);
    const elsewhere = await mkdtemp(path.join(dir, 'elsewhere-'));
    const { stdout } = await run(bin, ['--version'], { cwd: elsewhere, env: cleanEnv() });
    const { version } = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect(stdout.trim()).toBe(version);
  });

  it("plans a job in another folder: its files for people beside that job file, its state in the user's account store", async () => {
    const elsewhere = await mkdtemp(path.join(dir, 'campaigns-'));
    const installed = path.join(prefix, 'lib', 'node_modules', 'outreach');
    await mkdir(path.join(elsewhere, 'jobs'));
    await cp(path.join(installed, 'jobs', 'demo.json'), path.join(elsewhere, 'jobs', 'demo.json'));
    await cp(path.join(installed, 'samples'), path.join(elsewhere, 'samples'), { recursive: true });
    const home = path.join(elsewhere, 'home');
    const { stdout } = await run(path.join(prefix, 'bin', 'outreach'), ['plan', 'jobs/demo.json', '--offline', '--channel-type', 'wba', '--json'], {
      cwd: elsewhere,
      env: { ...cleanEnv(), HOME: home, XDG_STATE_HOME: '' },
    });
    const plan = JSON.parse(stdout) as { contacts: number };
    expect(plan.contacts).toBe(270);
    expect((await stat(path.join(elsewhere, 'jobs', 'demo', 'rejects.csv'))).isFile()).toBe(true);
    expect((await stat(path.join(home, '.local', 'state', 'outreach', 'demo', 'plan-rejects.json'))).isFile()).toBe(true);
  });
});
