import { createFileStore, createPgStore, isPgUrl, maskUrl, migratePgStore, parsePgUrl, pgStoreImporter, type MigrateOutcome, type StateStore, type StoreImporter } from '../checkpoint/index.js';
import { resolveStateDir } from './context.js';
import { CliError } from './exit.js';
import { urlInFile, warnOfPassword } from './store-url.js';

/**
 * The composition root of the store: the one place that decides where the state is kept and opens
 * it. Every command gets its store here and passes it down; nothing else in src/ opens a backend
 * (test/architecture.test.ts holds it). A new backend is one more kind of `StoreWhere`, read in
 * `storeWhere` and opened in `openStore`'s switch.
 */

/**
 * Where the store is, parsed from the flags and the environment: a state folder (the file store), or
 * a database (its URL as given, password included: never shown; `filesDir` is the local folder that
 * holds only the files for people).
 */
export type StoreWhere = { kind: 'folder'; path: string } | { kind: 'postgres'; url: string; filesDir: string; leaseSeconds?: number };

/** The flags of a command that say where its store is. */
export interface StoreFlags {
  stateDir?: string;
  /** A database store's URL (`--store`); else a file holding it (`--store-file`), else OUTREACH_STORE, else OUTREACH_STORE_FILE; none: the state folder. */
  store?: string;
  storeFile?: string;
}

/** The `--store` option, the same on every command that reads or writes state. */
export const STORE_OPTION = ['--store <url>', 'keep the state in this PostgreSQL database, postgres://user@host:5432/db (default $OUTREACH_STORE; none: the state folder); a password on the command line shows in ps, so give it in --store-file, PGPASSFILE or PGPASSWORD'] as const;
/** `--store-file`: the URL read from a file (a systemd credential, a mounted Kubernetes secret), so the password is never on a command line. */
export const STORE_FILE_OPTION = ['--store-file <file>', "read the database store's URL from this file, password included (default $OUTREACH_STORE_FILE)"] as const;

/** The store URL given, and where it came from (for the sentence that refuses it); undefined when none. */
function givenUrl(flags: StoreFlags, env: NodeJS.ProcessEnv): { url: string; from: string } | undefined {
  const set = (v: string | undefined): v is string => v !== undefined && v !== '';
  if (set(flags.store) && set(flags.storeFile)) throw new CliError('give the store with --store or with --store-file, not both');
  if (set(flags.store)) {
    warnOfPassword(flags.store);
    return { url: flags.store, from: '--store' };
  }
  if (set(flags.storeFile)) return { url: urlInFile(flags.storeFile, '--store-file'), from: `--store-file ${flags.storeFile}` };
  if (set(env.OUTREACH_STORE) && set(env.OUTREACH_STORE_FILE)) throw new CliError('OUTREACH_STORE and OUTREACH_STORE_FILE are both set; keep one (OUTREACH_STORE_FILE keeps the password out of the environment)');
  if (set(env.OUTREACH_STORE)) return { url: env.OUTREACH_STORE, from: 'OUTREACH_STORE' };
  if (set(env.OUTREACH_STORE_FILE)) return { url: urlInFile(env.OUTREACH_STORE_FILE, 'OUTREACH_STORE_FILE'), from: `OUTREACH_STORE_FILE ${env.OUTREACH_STORE_FILE}` };
  return undefined;
}

/**
 * Where the store is: a database when --store or OUTREACH_STORE names one, else the state folder.
 * The folder (the whole store, or the files for people beside a database) is --state-dir, else
 * OUTREACH_STATE_DIR, else `.outreach` beside the job file, else (no job: webhook, sync, suppress)
 * `.outreach` in the working directory. A URL of another scheme, or one that cannot be read, is
 * refused in one sentence (exit 2), its password masked.
 */
export function storeWhere(flags: StoreFlags, env: NodeJS.ProcessEnv = process.env, jobFile?: string): StoreWhere {
  const folder = resolveStateDir(flags.stateDir, env, jobFile);
  const given = givenUrl(flags, env);
  if (given === undefined) return { kind: 'folder', path: folder };
  if (!isPgUrl(given.url)) {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(given.url)?.[1];
    const shown = scheme === undefined ? 'the value given is not a URL' : `"${scheme}://" is not a store outreach can use`;
    throw new CliError(`${given.from}: ${shown}; give a PostgreSQL URL such as postgres://user@host:5432/database, or leave it unset to keep the state in the folder`);
  }
  parsePgUrl(given.url); // a URL that cannot be read is refused here, before anything else is done
  const leaseSeconds = leaseOf(env);
  return { kind: 'postgres', url: given.url, filesDir: folder, ...(leaseSeconds !== undefined && { leaseSeconds }) };
}

/** OUTREACH_LEASE_SECONDS: how long a job's lease lasts without renewal on a database store (default 30). */
function leaseOf(env: NodeJS.ProcessEnv): number | undefined {
  const value = env.OUTREACH_LEASE_SECONDS;
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 1 || n > 3600) throw new CliError(`OUTREACH_LEASE_SECONDS is "${value}"; give a number of seconds from 1 to 3600 (default 30), or leave it unset`);
  return n;
}

/** Opens the store `where` names. The only caller of a backend's opener outside checkpoint/. */
export function openStore(where: StoreWhere): StateStore {
  switch (where.kind) {
    case 'folder':
      return createFileStore(where.path);
    case 'postgres':
      return createPgStore(where.url, { filesDir: where.filesDir, ...(where.leaseSeconds !== undefined && { leaseSeconds: where.leaseSeconds }) });
    default: {
      const never: never = where;
      throw new Error(`unknown store kind ${String(never)}`);
    }
  }
}

/** The store of a command's flags and environment, for the job file when it has one. */
export function storeFor(flags: StoreFlags, jobFile?: string, env: NodeJS.ProcessEnv = process.env): StateStore {
  return openStore(storeWhere(flags, env, jobFile));
}

/** Runs `body` with the store, then lets the store go (a database's connections), whatever happened, so the process ends promptly. */
export async function usingStore<T>(store: StateStore, body: (store: StateStore) => Promise<T>): Promise<T> {
  try {
    return await body(store);
  } finally {
    await store.close();
  }
}

/** Where a store is, for people: a folder as it is, a database URL with its password masked. */
export function shownWhere(where: StoreWhere): string {
  return where.kind === 'folder' ? where.path : maskUrl(where.url);
}

/**
 * The store whose suppression list `suppress` reads and writes: a database store (its list is every
 * job's list), else --state-dir, OUTREACH_STATE_DIR, or the one beside --job's file. Never a guess:
 * a list kept where no job looks protects nobody.
 */
export function suppressionStore(flags: StoreFlags & { job?: string }, env: NodeJS.ProcessEnv = process.env): StateStore {
  if (givenUrl(flags, env) === undefined && flags.stateDir === undefined && !env.OUTREACH_STATE_DIR && flags.job === undefined) {
    throw new CliError('say whose suppression list this is: --job jobs/x.json (the state folder beside that job file), --state-dir DIR, or OUTREACH_STATE_DIR (or a database store: --store / OUTREACH_STORE)');
  }
  return storeFor(flags, flags.job, env);
}

/** `store migrate`: the database store's migrations applied now; a state folder has none (exit 2). */
export async function migrateStore(where: StoreWhere): Promise<{ location: string; outcome: MigrateOutcome }> {
  if (where.kind !== 'postgres') {
    throw new CliError('the state folder needs no migration (its files are written as they are needed); `store migrate` is for a database store: give --store postgres://… or set OUTREACH_STORE');
  }
  const store = createPgStore(where.url, { filesDir: where.filesDir });
  return usingStore(store, async () => ({ location: store.location, outcome: await migratePgStore(store.db) }));
}

/** `store import`: the state folder `folder` on its way into the database store `where` names (close the importer when done). */
export function storeImporter(where: StoreWhere, folder: string): StoreImporter {
  if (where.kind !== 'postgres') {
    throw new CliError('`store import` moves a state folder into a database store: give --store postgres://… or set OUTREACH_STORE');
  }
  return pgStoreImporter(createPgStore(where.url, { filesDir: where.filesDir }), folder);
}
