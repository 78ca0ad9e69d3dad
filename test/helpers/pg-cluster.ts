/**
 * A throwaway PostgreSQL cluster for the tests: Debian's `initdb` and `pg_ctl` in a temporary folder,
 * as the `postgres` user when the tests run as root (the server refuses root), on a free port of
 * 127.0.0.1 and a socket in the folder. Started once for the whole run by `test/pg-global-setup.ts`;
 * a test that stops and starts its server (the database killed mid-run) starts its own.
 */
import { execFile as execFileCb } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFile = promisify(execFileCb);

export interface Cluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres (a `secure` cluster: the superuser over the socket folder, which trusts it). */
  url: string;
  /** A `secure` cluster's self-signed certificate (for `localhost` and 127.0.0.1), its own CA. */
  certFile?: string;
  port: number;
  dir: string;
  /** The socket folder. */
  socketDir: string;
  /** Stops the server (fast: open connections are closed). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

/** The folder of Debian's PostgreSQL programs (initdb, pg_ctl), or undefined when none is installed. */
export function postgresBin(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'))) return dir;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : path.join(root, versions[0], 'bin');
}

/** pgbouncer, when installed. */
export function pgbouncerBin(): string | undefined {
  for (const p of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer']) if (existsSync(p)) return p;
  return undefined;
}

export const PG_MISSING = "PostgreSQL tests skipped: Debian's PostgreSQL is not installed (apt-get install postgresql pgbouncer); in CI they never skip";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program, as `postgres` when we are root. */
export async function runAsPostgres(program: string, args: string[]): Promise<string> {
  const { stdout } = asRoot ? await execFile('runuser', ['-u', 'postgres', '--', program, ...args]) : await execFile(program, args);
  return stdout;
}

async function postgresIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (!asRoot) return undefined;
  const { stdout } = await execFile('id', ['-u', 'postgres']);
  const { stdout: g } = await execFile('id', ['-g', 'postgres']);
  return { uid: Number(stdout.trim()), gid: Number(g.trim()) };
}

/**
 * `durable`: fsync and synchronous commit on, as a real server runs (the bench); the tests run without.
 * `secure`: as a managed database is set up: TCP only with TLS (a self-signed certificate made here with
 * openssl) and a SCRAM password; unencrypted TCP refused. The socket folder still trusts the superuser.
 */
export async function startCluster(options: { durable?: boolean; secure?: boolean } = {}): Promise<Cluster> {
  const bin = postgresBin();
  if (bin === undefined) throw new Error(PG_MISSING);
  const dir = await mkdtemp(path.join(tmpdir(), 'outreach-pg-'));
  const ids = await postgresIds();
  await chmod(dir, 0o755);
  if (ids) await chown(dir, ids.uid, ids.gid);
  const data = path.join(dir, 'data');
  await runAsPostgres(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--no-locale']);
  const port = await freePort();
  const fast = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const tls = options.secure ? await secure(dir, data, ids) : undefined;
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${fast}${tls?.options ?? ''}`;
  const start = async () => {
    await runAsPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-o', serverOptions, '-l', path.join(dir, 'server.log'), '-w', '-t', '30', 'start']);
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await runAsPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-m', mode, '-w', 'stop']).catch(() => undefined);
  };
  await start();
  return {
    url: tls ? `postgres://postgres@/postgres?host=${dir}&port=${port}` : `postgres://postgres@127.0.0.1:${port}/postgres`,
    ...(tls && { certFile: tls.certFile }),
    port,
    dir,
    socketDir: dir,
    start,
    stop,
    async destroy() {
      await stop('immediate');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A self-signed certificate for the server, and a pg_hba.conf taking TCP only over TLS with a SCRAM password. */
async function secure(dir: string, data: string, ids: { uid: number; gid: number } | undefined): Promise<{ options: string; certFile: string }> {
  const { writeFile } = await import('node:fs/promises');
  const certFile = path.join(dir, 'server.crt');
  const keyFile = path.join(dir, 'server.key');
  await execFile('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1']);
  await chmod(keyFile, 0o600);
  await chmod(certFile, 0o644);
  const hba = path.join(data, 'pg_hba.conf');
  await writeFile(hba, ['local all all trust', 'hostssl all all 127.0.0.1/32 scram-sha-256', 'hostnossl all all 127.0.0.1/32 reject', ''].join('\n'));
  if (ids) for (const f of [keyFile, certFile, hba]) await chown(f, ids.uid, ids.gid);
  return { options: ` -c ssl=on -c ssl_cert_file=${certFile} -c ssl_key_file=${keyFile} -c password_encryption=scram-sha-256`, certFile };
}

let counter = 0;

/** A URL of the shared cluster with a schema of its own (one per test file or test). */
export function schemaUrl(base: string, name = `t_${process.pid}_${Date.now().toString(36)}_${(counter++).toString(36)}`): string {
  return `${base}${base.includes('?') ? '&' : '?'}schema=${name}`;
}

export interface Bouncer {
  /** postgres://postgres@127.0.0.1:<port>/postgres, through the pooler. */
  url: string;
  /** Stops the pooler for good and removes its folder. */
  stop(): Promise<void>;
  /** Stops the pooler (its clients' connections cut), keeping its folder and port, and resolves once it is gone. */
  halt(): Promise<void>;
  /** Starts it again on the same port (after `halt`). */
  start(): Promise<void>;
}

/**
 * Debian's PgBouncer in transaction pooling in front of `cluster`: a server connection is lent to a
 * client for one transaction only, so nothing that keeps session state (a session advisory lock,
 * LISTEN, a SET outside a transaction, a named prepared statement) survives between two of them.
 * While the database is down it holds a client's query (it does not fail it) until it can log in again.
 */
export async function startPgbouncer(cluster: Pick<Cluster, 'port'>, options: { serverLoginRetrySeconds?: number } = {}): Promise<Bouncer> {
  const bin = pgbouncerBin();
  if (bin === undefined) throw new Error(PG_MISSING);
  const { writeFile, readFile } = await import('node:fs/promises');
  const dir = await mkdtemp(path.join(tmpdir(), 'outreach-bouncer-'));
  await chmod(dir, 0o755);
  const ids = await postgresIds();
  if (ids) await chown(dir, ids.uid, ids.gid);
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  await writeFile(path.join(dir, 'users.txt'), '"postgres" ""\n');
  await writeFile(
    ini,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${cluster.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 10',
      'ignore_startup_parameters = extra_float_digits',
      // After the database failed a login, the pooler waits this long before it tries again (PgBouncer's default: 15 s).
      ...(options.serverLoginRetrySeconds !== undefined ? [`server_login_retry = ${options.serverLoginRetrySeconds}`] : []),
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      `pidfile = ${path.join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  if (ids) for (const f of ['users.txt', 'pgbouncer.ini']) await chown(path.join(dir, f), ids.uid, ids.gid);
  const pidFile = path.join(dir, 'pgbouncer.pid');
  const pidOf = async () => Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
  const start = async () => {
    await runAsPostgres(bin, ['-d', ini]);
    for (let i = 0; i < 100 && !((await pidOf()) > 0); i++) await new Promise((r) => setTimeout(r, 50));
  };
  const kill = (pid: number, signal: NodeJS.Signals | 0): boolean => {
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false; // already gone
    }
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      setTimeout(() => void rm(dir, { recursive: true, force: true }), 1_000).unref();
      const pid = await pidOf();
      if (pid > 0) kill(pid, 'SIGTERM');
    },
    async halt() {
      const pid = await pidOf();
      if (!(pid > 0)) return;
      // SIGTERM: PgBouncer 1.18 shuts down at once, closing its clients' connections.
      kill(pid, 'SIGTERM');
      for (let i = 0; i < 200 && kill(pid, 0); i++) await new Promise((r) => setTimeout(r, 25));
      await rm(pidFile, { force: true });
    },
    start,
  };
}
