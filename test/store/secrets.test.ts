/**
 * The store's password and connection, end to end through the built CLI, against a server set up as
 * a managed database is: TCP only over TLS with a self-signed certificate, and a SCRAM password
 * (started here; the shared test cluster trusts every connection, so it checks no password). A
 * password holding every special character connects when percent-encoded and is never shown, read or
 * not; the URL comes from a file; the password from PGPASSWORD or a password file with no warning of
 * node-postgres; sslmode is read as libpq reads it.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { Db } from '../../src/checkpoint/pg/db.js';
import { parsePgUrl } from '../../src/checkpoint/pg/url.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { campaign, type Campaign } from '../helpers/campaign.js';
import { cliPath, runCli, type CliResult } from '../helpers/cli.js';
import { startCluster, type Cluster } from '../helpers/pg-cluster.js';

const pgUrl = inject('pgUrl');

/** Every printable ASCII character that is not a letter or a digit, between two markers looked for in every output. */
const PASSWORD = 'Zq7 !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~Xk4';
/** The form of a password people write unencoded most: an @ and a colon, which a URL parser still reads. */
const PLAIN_PASSWORD = 'Sec@ret:Wv9';
const MARKERS = ['Zq7', 'Xk4', 'ret:Wv9', 'Wv9'];

let cluster: Cluster;
let dir: string;
/** A home of the test's own: pgpass reads ~/.pgpass, and the tests never read the real one. */
let home: string;

const db = 'outreach_sp';
const tcp = () => `127.0.0.1:${cluster.port}`;
const encoded = (query = 'sslmode=require') => `postgres://special:${encodeURIComponent(PASSWORD)}@${tcp()}/${db}?${query}`;
const unencoded = (query = 'sslmode=require') => `postgres://special:${PASSWORD}@${tcp()}/${db}?${query}`;
const plain = () => `postgres://special2:${PLAIN_PASSWORD}@${tcp()}/${db}?sslmode=require`;

/** The CLI with no OUTREACH_* or PG* of the test's own, and the test's HOME. */
function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OUTREACH_') && !k.startsWith('PG')));
  return runCli(args, { env: { ...clean, HOME: home, ...env } });
}

function expectNoPassword(...results: CliResult[]): void {
  for (const r of results) for (const m of MARKERS) expect(`${r.stdout}${r.stderr}`, `${r.stdout}${r.stderr}`).not.toContain(m);
  for (const r of results) expect(`${r.stdout}${r.stderr}`).not.toContain(encodeURIComponent(PASSWORD));
}

/** One line on stderr (after its timestamp), and nothing else there. */
function oneSentence(r: CliResult): string {
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  return lines[0] ?? '';
}

beforeAll(async () => {
  if (!pgUrl) return;
  cluster = await startCluster({ secure: true });
  dir = await mkdtemp(path.join(os.tmpdir(), 'outreach-secrets-'));
  home = path.join(dir, 'home');
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE special LOGIN PASSWORD ${admin.escapeLiteral(PASSWORD)}`);
    await admin.query(`CREATE ROLE special2 LOGIN PASSWORD ${admin.escapeLiteral(PLAIN_PASSWORD)}`);
    await admin.query(`CREATE DATABASE ${db} OWNER special`);
    await admin.query(`GRANT ALL ON DATABASE ${db} TO special2`);
  } finally {
    await admin.end();
  }
}, 60_000);

afterAll(async () => {
  await cluster?.destroy();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!pgUrl)('a password with every special character', () => {
  it('connects when percent-encoded, and is shown masked', async () => {
    const r = await cli(['store', 'migrate'], { OUTREACH_STORE: `${encoded()}&schema=encoded` });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`store postgres://special:***@${tcp()}/${db}?sslmode=require&schema=encoded: applied migration`);
    expectNoPassword(r);
  });

  it('unencoded, is refused in one sentence that masks it whole and says to percent-encode it (exit 2); it is never shown either where the URL is not a PostgreSQL one', async () => {
    const fromEnv = await cli(['store', 'migrate'], { OUTREACH_STORE: unencoded() });
    expect(fromEnv.code).toBe(2);
    expect(oneSentence(fromEnv)).toMatch(new RegExp(`outreach: the store URL postgres://special:\\*\\*\\*@127\\.0\\.0\\.1:${cluster.port}/${db}\\?sslmode=require cannot be read as written: .*percent-encode`));
    const fromFlag = await cli(['status', path.join(dir, 'job.json'), '--store', unencoded()]);
    expect(fromFlag.code).toBe(2);
    const scheme = await cli(['store', 'migrate'], { OUTREACH_STORE: `mysql://special:${PASSWORD}@db/x` });
    expect(scheme.code).toBe(2);
    expect(oneSentence(scheme)).toMatch(/OUTREACH_STORE: "mysql:\/\/" is not a store outreach can use/);
    const noUrl = await cli(['store', 'migrate', '--store', `special:${PASSWORD}@db`]);
    expect(noUrl.code).toBe(2);
    expectNoPassword(fromEnv, fromFlag, scheme, noUrl);
  });

  it('is masked when the server cannot be reached; one a URL parser would read as a port and a path is refused before any connection', async () => {
    const refused = await cli(['store', 'migrate'], { OUTREACH_STORE: `postgres://special:${encodeURIComponent(PASSWORD)}@127.0.0.1:1/${db}` });
    expect(refused.code).toBe(3);
    expect(oneSentence(refused)).toMatch(new RegExp(`outreach: the store \\(database ${db} on 127\\.0\\.0\\.1:1\\) cannot be used: the connection was refused`));
    // Read by a URL parser, "special:5432" is the host and port, and the rest of the password the database's name.
    const portLike = await cli(['store', 'migrate'], { OUTREACH_STORE: `postgres://special:5432/${PASSWORD}@127.0.0.1:1/${db}` });
    expect(portLike.code).toBe(2);
    expect(oneSentence(portLike)).toMatch(/the store URL postgres:\/\/special:\*\*\*@127\.0\.0\.1:1\/outreach_sp cannot be read as written/);
    expectNoPassword(refused, portLike);
  });

  it('holding @ and : unencoded, connects and is masked whole in store migrate and at the webhook\'s start', async () => {
    const migrated = await cli(['store', 'migrate'], { OUTREACH_STORE: `${plain()}&schema=plain` });
    expect(migrated.stderr).toBe('');
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toMatch(new RegExp(`^store postgres://special2:\\*\\*\\*@127\\.0\\.0\\.1:${cluster.port}/${db}\\?sslmode=require&schema=plain: `));
    const started = await startWebhook({ OUTREACH_STORE: `${plain()}&schema=plain` });
    expect(started.stdout).toContain(`state: postgres://special2:***@${tcp()}/${db}?sslmode=require&schema=plain\n`);
    expectNoPassword(migrated, started);
  });
});

/** Starts `outreach webhook` on a free port, reads its first lines, and stops it. */
function startWebhook(env: Record<string, string>): Promise<CliResult> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OUTREACH_') && !k.startsWith('PG')));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, 'webhook', '--port', '0', '--state-dir', path.join(dir, 'webhook-files')], {
      env: { ...clean, HOME: home, NO_COLOR: '1', OUTREACH_WEBHOOK_SECRET: 'whsec-test', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (/press Ctrl\+C/.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe.skipIf(!pgUrl)('the URL from a file, and a warning for a password on the command line', () => {
  let sim: RunningSimulator | undefined;
  let c: Campaign | undefined;
  afterEach(async () => {
    await sim?.close();
    await c?.cleanup();
  });

  it('runs a job on a store named by OUTREACH_STORE_FILE, and reads it back with --store-file, warning of nothing', async () => {
    const file = path.join(dir, 'store-url');
    await writeFile(file, `${encoded()}&schema=fromfile\n`);
    await chmod(file, 0o600);
    sim = await startSimulator({ seed: 3 });
    c = await campaign({ rows: 5 });
    const env = { OUTREACH_BASE_URL: sim.url, OUTREACH_TOKEN: sim.token };
    const run = await cli(['run', c.jobFile, '--no-progress', '--state-dir', path.join(c.dir, 'files')], { ...env, OUTREACH_STORE_FILE: file });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(sim.state.requests.filter((q) => q.method === 'POST').length).toBeGreaterThanOrEqual(5);
    const status = await cli(['status', c.jobFile, '--json', '--store-file', file, '--state-dir', path.join(c.dir, 'elsewhere')], env);
    expect(status.stderr).toBe('');
    expect(JSON.parse(status.stdout).byStatus).toMatchObject({ sent: 5, pending: 0 });
    expectNoPassword(run, status);
  });

  it('says so once on stderr when --store holds a password, and not for the same URL from the environment or a file', async () => {
    const flag = await cli(['store', 'migrate', '--store', `${encoded()}&schema=warned`]);
    expect(flag.code).toBe(0);
    expect(oneSentence(flag)).toMatch(/outreach: warning: --store holds a password, which other users of this machine can read \(ps, \/proc\) .*--store-file or OUTREACH_STORE_FILE/);
    const env = await cli(['store', 'migrate'], { OUTREACH_STORE: `${encoded()}&schema=warned` });
    expect(env.stderr).toBe('');
    const noPassword = await cli(['store', 'migrate', '--store', `postgres://special@${tcp()}/${db}?sslmode=require&schema=warned`], { PGPASSWORD: PASSWORD });
    expect(noPassword.stderr).toBe('');
    expect(noPassword.code).toBe(0);
    expectNoPassword(flag, env, noPassword);
  });

  it('refuses a file that cannot be read or is empty, naming it (exit 2)', async () => {
    const missing = await cli(['store', 'migrate'], { OUTREACH_STORE_FILE: path.join(dir, 'nowhere') });
    expect(missing.code).toBe(2);
    expect(oneSentence(missing)).toMatch(/OUTREACH_STORE_FILE .*nowhere: cannot read it \(ENOENT\); give the path of a file holding the store's URL/);
    const empty = path.join(dir, 'empty-url');
    await writeFile(empty, '\n');
    const r = await cli(['store', 'migrate', '--store-file', empty]);
    expect(r.code).toBe(2);
    expect(oneSentence(r)).toMatch(/--store-file .*empty-url: the file is empty/);
  });
});

describe.skipIf(!pgUrl)('the password from PGPASSWORD or a password file', () => {
  const noPassword = () => `postgres://special@${tcp()}/${db}?sslmode=require&schema=pgpass`;

  it('connects with PGPASSWORD, printing nothing on stderr', async () => {
    const r = await cli(['store', 'migrate'], { OUTREACH_STORE: noPassword(), PGPASSWORD: PASSWORD });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('connects with PGPASSFILE (and ~/.pgpass), printing no deprecation warning', async () => {
    const escaped = PASSWORD.replace(/\\/g, '\\\\').replace(/:/g, '\\:');
    const file = path.join(dir, 'pgpass');
    await writeFile(file, `127.0.0.1:${cluster.port}:${db}:special:${escaped}\n`);
    await chmod(file, 0o600);
    const r = await cli(['store', 'migrate'], { OUTREACH_STORE: noPassword(), PGPASSFILE: file });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    await rm(home, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(home, { recursive: true }));
    await writeFile(path.join(home, '.pgpass'), `*:*:*:special:${escaped}\n`, { mode: 0o600 });
    const fromHome = await cli(['store', 'migrate'], { OUTREACH_STORE: noPassword() });
    expect(fromHome.stderr).toBe('');
    expect(fromHome.code).toBe(0);
    await rm(home, { recursive: true, force: true });
  });

  it('with no password anywhere, says where to give one in one sentence (exit 3)', async () => {
    const r = await cli(['store', 'migrate'], { OUTREACH_STORE: noPassword() });
    expect(r.code).toBe(3);
    expect(oneSentence(r)).toMatch(/cannot be used: the server asks for a password and none was given; give it in PGPASSWORD, in a password file/);
  });
});

describe.skipIf(!pgUrl)('sslmode, read as libpq reads it, against a self-signed certificate', () => {
  it('require: encrypted, the certificate not checked, no warning', async () => {
    const r = await cli(['store', 'migrate'], { OUTREACH_STORE: `${encoded('sslmode=require')}&schema=ssl_require` });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The server takes TCP only over TLS; the store's own connection says it is encrypted.
    const store = new Db(parsePgUrl(`${encoded('sslmode=require')}&schema=ssl_require`));
    try {
      const { rows } = await store.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
      expect(rows[0]?.ssl).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('verify-full: refused in one sentence saying how to trust it or not check it (exit 3); with its CA in sslrootcert, connects', async () => {
    const refused = await cli(['store', 'migrate'], { OUTREACH_STORE: encoded('sslmode=verify-full') });
    expect(refused.code).toBe(3);
    expect(oneSentence(refused)).toMatch(/cannot be used: the server's certificate is not signed by a CA this machine trusts \(it may be self-signed\); name the CA that signed it with sslrootcert=.* or use sslmode=require/);
    const verifiedUrl = `${encoded(`sslmode=verify-full&sslrootcert=${cluster.certFile ?? ''}`)}&schema=ssl_full`;
    const verified = await cli(['store', 'migrate'], { OUTREACH_STORE: verifiedUrl });
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    const caOnly = await cli(['store', 'migrate'], { OUTREACH_STORE: encoded('sslmode=verify-ca') });
    expect(caOnly.code).toBe(2);
    expect(oneSentence(caOnly)).toMatch(/sslmode=verify-ca: verify-ca checks the server's certificate against a CA you name: add sslrootcert=/);
    expectNoPassword(refused, verified, caOnly);
  });

  it('disable, against a server that takes only encrypted connections: says to add sslmode (exit 3)', async () => {
    const r = await cli(['store', 'migrate'], { OUTREACH_STORE: encoded('sslmode=disable') });
    expect(r.code).toBe(3);
    expect(oneSentence(r)).toMatch(/the server takes this role only over an encrypted connection; add sslmode=verify-full \(or sslmode=require\) to the URL/);
  });
});
