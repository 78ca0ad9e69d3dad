import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { docPages } from '../helpers/doc-pages.js';

const run = promisify(execFile);
const UNITS = path.join(repoRoot, 'deploy', 'systemd');
let readme: string;
/** The README and the guides of docs/, one text: the scheduled examples live in the guides. */
let pages: string;

beforeAll(async () => {
  readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
  pages = docPages().map((p) => p.text).join('\n');
});

/** The README's fenced code blocks, without their fences. */
function codeBlocks(text: string): string[] {
  return [...text.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** Lines of the pages' code blocks that a scheduler runs: crontab lines, systemd Exec lines, Kubernetes args. */
function scheduledLines(text: string): string[] {
  return codeBlocks(text)
    .flatMap((b) => b.split('\n'))
    .filter((l) => /^[\d*/,-]+ [\d*/,-]+ [\d*/,-]+ [\d*/,-]+ [\d*/,-]+ /.test(l) || /^Exec\w*=/.test(l) || /^\s*(?:args|command): \[/.test(l));
}

describe("the README's install path and the guides' scheduled examples", () => {
  it('gives one install path for a machine that runs campaigns and says where the binary lands', () => {
    expect(readme).toMatch(/npm install -g \.\/outreach-[\d.]+\.tgz/);
    expect(readme).toContain('$(npm prefix -g)/bin/outreach');
  });

  it('has every scheduled example (cron, systemd, Kubernetes) call the installed binary, never npx', () => {
    const lines = scheduledLines(pages);
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) {
      expect(line, line).not.toMatch(/\bnpx\b/);
      expect(line, line).toMatch(/\/usr\/local\/bin\/outreach |"outreach"/);
    }
  });
});

describe('the Kubernetes manifests (deploy/kubernetes/)', () => {
  it("mount the store's URL from a Secret as a file (OUTREACH_STORE_FILE), never in an argument or the environment", async () => {
    const dir = path.join(repoRoot, 'deploy', 'kubernetes');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const manifests = await readFile(path.join(dir, file), 'utf8');
      expect(manifests, file).not.toMatch(/name: OUTREACH_STORE\b(?!_FILE)|"--store"/);
      expect(manifests, file).not.toMatch(/postgres(ql)?:\/\/[^\s"]*@/);
      expect(manifests, file).toMatch(/name: OUTREACH_STORE_FILE, value: \/run\/secrets\/outreach\/store-url/);
      expect(manifests, file).toMatch(/secret: \{ secretName: outreach/);
    }
  });
});

/** The pages' systemd units: each block that starts with `# /etc/systemd/system/<name>`. */
function readmeUnits(text: string): Map<string, string> {
  const units = new Map<string, string>();
  for (const block of codeBlocks(text)) {
    const name = /^# \/etc\/systemd\/system\/(\S+)/.exec(block)?.[1];
    if (name !== undefined) units.set(name, block);
  }
  return units;
}

/** The files of deploy/systemd/: its units, and their drop-ins (`<unit>.d/<name>.conf`), as paths below it. */
async function unitFiles(): Promise<string[]> {
  const entries = await readdir(UNITS, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(UNITS, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();
}

describe('the systemd units', () => {
  it('are in deploy/systemd/, shown verbatim in the guides', async () => {
    const files = await unitFiles();
    const shown = readmeUnits(pages);
    expect([...shown.keys()].sort()).toEqual(files);
    for (const name of files) expect(shown.get(name), name).toBe(await readFile(path.join(UNITS, name), 'utf8'));
  });

  it("keep the files they write their owner's (UMask=0077), and take the store's URL from a credential file, never a command line", async () => {
    const files = await unitFiles();
    for (const name of files.filter((f) => f.endsWith('.service'))) expect(await readFile(path.join(UNITS, name), 'utf8'), name).toMatch(/^UMask=0077$/m);
    for (const name of files) {
      const text = await readFile(path.join(UNITS, name), 'utf8');
      expect(text, name).not.toMatch(/--store\b|postgres(ql)?:\/\/|OUTREACH_STORE=/);
      if (/LoadCredential=/.test(text)) expect(text, name).toMatch(/^LoadCredential=store-url:\/etc\/outreach\/store-url\nEnvironment=OUTREACH_STORE_FILE=%d\/store-url$/m);
    }
    expect(files).toContain('outreach-webhook.service.d/store-url.conf');
  });

  const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => existsSync(p));
  const hostUnits = ['/usr/lib/systemd/system', '/lib/systemd/system'].find((p) => existsSync(p));
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'outreach-systemd-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it.skipIf(analyze === undefined || hostUnits === undefined)('pass systemd-analyze verify as written, with the binary where the README installs it', async () => {
    // A root of the test's own: the host's units (targets the units name), ours, and an executable at ExecStart's path.
    await mkdir(path.join(root, 'usr/lib/systemd'), { recursive: true });
    await cp(hostUnits!, path.join(root, 'usr/lib/systemd/system'), { recursive: true, dereference: false, verbatimSymlinks: true });
    await mkdir(path.join(root, 'etc/systemd/system'), { recursive: true });
    await cp(UNITS, path.join(root, 'etc/systemd/system'), { recursive: true });
    await mkdir(path.join(root, 'usr/local/bin'), { recursive: true });
    await writeFile(path.join(root, 'usr/local/bin/outreach'), '#!/bin/sh\n');
    await chmod(path.join(root, 'usr/local/bin/outreach'), 0o755);
    // Template units are checked as an instance, as `systemctl enable --now outreach-nightly@number-1.timer` starts them.
    // Drop-ins (`<unit>.d/`) are read with their unit.
    const names = (await readdir(UNITS, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name.replace('@.', '@number-1.'));
    const result = await run(analyze!, ['verify', '--man=no', `--root=${root}`, ...names]).then(
      (r) => ({ code: 0, stderr: r.stderr }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 30_000);
});
