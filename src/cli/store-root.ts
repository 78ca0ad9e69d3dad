import path from 'node:path';
import type { Command } from 'commander';
import { importStateFolder, type StoreImportOutcome } from '../app/store/import.js';
import { messageKey } from '../job/message-key.js';
import type { StateStore, StoreImporter } from '../checkpoint/index.js';
import { createFileStore, fileStoreImporter, legacyFolderWaiting, MOVED_MARK, takeLegacyFolder } from '../checkpoint/backend-file.js';
import type { MigrateOutcome } from '../checkpoint/backend-pg.js';
import { isPgUrl, maskUrl, parsePgUrl } from '../checkpoint/backend-url.js';
import { defaultStateDir, explicitStateDir } from './context.js';
import { CliError } from './exit.js';
import { urlInFile, warnOfPassword } from './store-url.js';

/**
 * The composition root of the store: the one place that decides where the state is kept and opens
 * it. Every command gets its store here and passes it down; nothing else in src/ opens a backend
 * (test/architecture.test.ts holds it). A new backend is one more kind of `StoreWhere`, read in
 * `storeWhere` and opened in `openStore`'s switch. The database backend (and node-postgres with it)
 * is loaded only when the store is a database (`pgBackend`): a command on a state folder starts
 * without it.
 */

/** The database backend, loaded on first use. */
async function pgBackend(): Promise<typeof import('../checkpoint/backend-pg.js')> {
  return import('../checkpoint/backend-pg.js');
}

/**
 * Where the store is, parsed from the flags and the environment: a state folder (the file store), or
 * a database (its URL as given, password included: never shown). `filesDir` is the local folder of the
 * files for people (each job's in a folder named after it there). `legacy` is the `.outreach/` folder an
 * earlier version kept beside the job file, to take into the store when it is still waiting there.
 */
export type StoreWhere =
  | { kind: 'folder'; path: string; filesDir: string; legacy?: string }
  | { kind: 'postgres'; url: string; filesDir: string; leaseSeconds?: number; patienceSeconds?: number; legacy?: string };

/** The flags of a command that say where its store is. */
export interface StoreFlags {
  stateDir?: string;
  /** A database store's URL (`--store`); else a file holding it (`--store-file`), else OUTREACH_STORE, else OUTREACH_STORE_FILE; none: the state folder. */
  store?: string;
  storeFile?: string;
}

/** The `--store` option, the same on every command that reads or writes state. */
export const STORE_OPTION = [
  '--store <url>',
  "keep the state in this PostgreSQL database, postgres://user@host:5432/db (default $OUTREACH_STORE; none: the account's state folder); a password on the command line shows in ps, so give it in --store-file, PGPASSFILE or PGPASSWORD",
] as const;
/** `--store-file`: the URL read from a file (a systemd credential, a mounted Kubernetes secret), so the password is never on a command line. */
export const STORE_FILE_OPTION = ['--store-file <file>', "read the database store's URL from this file, password included (default $OUTREACH_STORE_FILE)"] as const;

/** The `--state-dir` option, the same on every command that reads or writes state. */
export const STATE_DIR_OPTION = [
  '--state-dir <dir>',
  "state folder (default $OUTREACH_STATE_DIR, else this user's account store: $STATE_DIRECTORY, $XDG_STATE_HOME/outreach or ~/.local/state/outreach); its job folders hold the files for people too",
] as const;

/** Adds the options naming the store (`--state-dir`, `--store`, `--store-file`) to `command`. */
export function storeOptions(command: Command): Command {
  return command.option(...STATE_DIR_OPTION).option(...STORE_OPTION).option(...STORE_FILE_OPTION);
}

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
 * Where the store is: a database when --store or OUTREACH_STORE names one, else the state folder:
 * --state-dir, else OUTREACH_STATE_DIR, else the account's store of this machine (one per user, shared
 * by every job file wherever it sits). The files for people go to the named state folder (its job
 * folders, as they always did), else beside the job file in a folder named after the job, else (no
 * job: webhook, sync, suppress) into the state folder. A URL of another scheme, or one that cannot be
 * read, is refused in one sentence (exit 2), its password masked.
 */
export function storeWhere(flags: StoreFlags, env: NodeJS.ProcessEnv = process.env, jobFile?: string): StoreWhere {
  const explicit = explicitStateDir(flags.stateDir, env);
  const folder = explicit ?? defaultStateDir(env);
  const jobDir = jobFile !== undefined ? path.dirname(path.resolve(jobFile)) : undefined;
  const filesDir = explicit ?? jobDir ?? folder;
  const beside = explicit === undefined && jobDir !== undefined ? path.join(jobDir, '.outreach') : undefined;
  const given = givenUrl(flags, env);
  if (given === undefined) return { kind: 'folder', path: folder, filesDir, ...(beside !== undefined && beside !== folder && { legacy: beside }) };
  if (!isPgUrl(given.url)) {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(given.url)?.[1];
    const shown = scheme === undefined ? 'the value given is not a URL' : `"${scheme}://" is not a store outreach can use`;
    throw new CliError(`${given.from}: ${shown}; give a PostgreSQL URL such as postgres://user@host:5432/database, or leave it unset to keep the state in the folder`);
  }
  parsePgUrl(given.url); // a URL that cannot be read is refused here, before anything else is done
  const leaseSeconds = secondsIn(env, 'OUTREACH_LEASE_SECONDS', 1);
  const patienceSeconds = secondsIn(env, 'OUTREACH_STORE_PATIENCE_SECONDS', 0);
  return {
    kind: 'postgres',
    url: given.url,
    filesDir,
    ...(leaseSeconds !== undefined && { leaseSeconds }),
    ...(patienceSeconds !== undefined && { patienceSeconds }),
    ...(beside !== undefined && { legacy: beside }),
  };
}

/**
 * A database store's setting in seconds (default 30 when unset): OUTREACH_LEASE_SECONDS, how long a
 * job's lease lasts without renewal; OUTREACH_STORE_PATIENCE_SECONDS, how long a command waits for a
 * store it lost (a dropped connection, a pooler's restart) before it stops (0: not at all).
 */
function secondsIn(env: NodeJS.ProcessEnv, name: 'OUTREACH_LEASE_SECONDS' | 'OUTREACH_STORE_PATIENCE_SECONDS', least: number): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < least || n > 3600) throw new CliError(`${name} is "${value}"; give a number of seconds from ${least} to 3600 (default 30), or leave it unset`);
  return n;
}

/** Opens the store `where` names. The only caller of a backend's opener outside checkpoint/. */
export async function openStore(where: StoreWhere): Promise<StateStore> {
  switch (where.kind) {
    case 'folder':
      return createFileStore(where.path, { filesDir: where.filesDir });
    case 'postgres':
      return (await pgBackend()).createPgStore(where.url, {
        filesDir: where.filesDir,
        ...(where.leaseSeconds !== undefined && { leaseSeconds: where.leaseSeconds }),
        ...(where.patienceSeconds !== undefined && { patienceSeconds: where.patienceSeconds }),
      });
    default: {
      const never: never = where;
      throw new Error(`unknown store kind ${String(never)}`);
    }
  }
}

/** The store of a command's flags and environment, for the job file when it has one. */
export async function storeFor(flags: StoreFlags, jobFile?: string, env: NodeJS.ProcessEnv = process.env): Promise<StateStore> {
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

/**
 * A command's store for a job file, opened, with the `.outreach/` folder an earlier version left beside
 * the job file taken in first when it is still waiting there (said in one line on `say`); `body` runs
 * with it, then the store is let go.
 */
export async function withJobStore<T>(
  flags: StoreFlags,
  jobFile: string,
  body: (store: StateStore) => Promise<T>,
  options: { env?: NodeJS.ProcessEnv; say?: (line: string) => void } = {},
): Promise<T> {
  const where = storeWhere(flags, options.env ?? process.env, jobFile);
  return usingStore(await openStore(where), async (store) => {
    await takeInLegacy(where, store.location, options.say ?? ((line) => process.stderr.write(`${line}\n`)));
    return body(store);
  });
}

/** Takes the earlier version's folder beside the job file into the store `where` names, once; says what it did. */
async function takeInLegacy(where: StoreWhere, location: string, say: (line: string) => void): Promise<void> {
  const folder = where.legacy;
  if (folder === undefined || !(await legacyFolderWaiting(folder))) return;
  const outcome = await takeLegacyFolder(folder, location, async () => {
    const importer = await storeImporterOf(where, folder);
    try {
      return await importStateFolder(importer);
    } finally {
      await importer.close();
    }
  });
  if (outcome !== undefined) say(takenInLine(outcome, folder, location));
}

/** "outreach: took jobs/.outreach into the account's store …: 2 jobs (a, b), …; the folder is kept as it was, marked moved (…/MOVED.txt)". */
function takenInLine(outcome: StoreImportOutcome, folder: string, location: string): string {
  const taken = outcome.jobs.filter((j) => j.kind !== 'refused').map((j) => j.job);
  const jobs = taken.length === 0 ? 'no job' : `${taken.length} job${taken.length === 1 ? '' : 's'} (${taken.join(', ')})`;
  const lists = (['suppressions', 'ledger', 'windows'] as const).filter((p) => outcome.parts[p].imported > 0);
  const named = { suppressions: 'the suppression list', ledger: 'the record of who was messaged', windows: 'the reply windows' };
  const refused = outcome.refused.map((r) => `; job ${r.job} was not taken in (${r.reason}): its record of who was messaged was, so nobody in it is messaged again`).join('');
  const shownFolder = path.relative(process.cwd(), folder) || folder;
  return (
    `outreach: took ${shownFolder}, the state folder an earlier version kept beside the job file, into the account's store ${location}: ${jobs}` +
    `${lists.length > 0 ? `, ${lists.map((p) => named[p]).join(', ')}` : ''}${refused}; the folder is kept as it was, marked moved (${path.join(shownFolder, MOVED_MARK)})`
  );
}

/** Where a store is, for people: a folder as it is, a database URL with its password masked. */
export function shownWhere(where: StoreWhere): string {
  return where.kind === 'folder' ? where.path : maskUrl(where.url);
}


/** `store migrate`: the database store's migrations applied now; a state folder has none (exit 2). */
export async function migrateStore(where: StoreWhere): Promise<{ location: string; outcome: MigrateOutcome }> {
  if (where.kind !== 'postgres') {
    throw new CliError('the state folder needs no migration (its files are written as they are needed); `store migrate` is for a database store: give --store postgres://… or set OUTREACH_STORE');
  }
  const { createPgStore, migratePgStore } = await pgBackend();
  const store = createPgStore(where.url, { filesDir: where.filesDir });
  return usingStore(store, async () => ({ location: store.location, outcome: await migratePgStore(store.db) }));
}

/** `store import`: the state folder `folder` on its way into the store `where` names (the account's folder, or a database; close the importer when done). */
export async function storeImporter(where: StoreWhere, folder: string): Promise<StoreImporter> {
  if (where.kind === 'folder' && path.resolve(folder) === path.resolve(where.path)) throw new CliError(`${folder} is the store itself; give the folder to take in, such as jobs/.outreach`);
  return storeImporterOf(where, folder);
}

/** The importer of the store's kind, taking the state folder `folder` in. */
async function storeImporterOf(where: StoreWhere, folder: string): Promise<StoreImporter> {
  if (where.kind === 'folder') return fileStoreImporter(where.path, folder, { messageKey });
  const { createPgStore, pgStoreImporter } = await pgBackend();
  return pgStoreImporter(createPgStore(where.url, { filesDir: where.filesDir }), folder, { messageKey });
}
