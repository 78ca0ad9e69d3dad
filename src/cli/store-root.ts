import { createFileStore, type StateStore } from '../checkpoint/index.js';
import { resolveStateDir } from './context.js';
import { CliError } from './exit.js';

/**
 * The composition root of the store: the one place that decides where the state is kept and opens
 * it. Every command gets its store here and passes it down; nothing else in src/ opens a backend
 * (test/architecture.test.ts holds it). A new backend is one more kind of `StoreWhere`, read in
 * `storeWhere` and opened in `openStore`'s switch.
 */

/** Where the store is, parsed from the flags and the environment. Today only a state folder. */
export type StoreWhere = { kind: 'folder'; path: string };

/** The flags of a command that say where its store is. */
export interface StoreFlags {
  stateDir?: string;
}

/**
 * Where the store is: --state-dir, else OUTREACH_STATE_DIR, else `.outreach` beside the job file,
 * else (no job: webhook, sync, suppress) `.outreach` in the working directory.
 */
export function storeWhere(flags: StoreFlags, env: NodeJS.ProcessEnv = process.env, jobFile?: string): StoreWhere {
  return { kind: 'folder', path: resolveStateDir(flags.stateDir, env, jobFile) };
}

/** Opens the store `where` names. The only caller of a backend's opener outside checkpoint/. */
export function openStore(where: StoreWhere): StateStore {
  switch (where.kind) {
    case 'folder':
      return createFileStore(where.path);
    default: {
      const never: never = where.kind;
      throw new Error(`unknown store kind ${String(never)}`);
    }
  }
}

/** The store of a command's flags and environment, for the job file when it has one. */
export function storeFor(flags: StoreFlags, jobFile?: string, env: NodeJS.ProcessEnv = process.env): StateStore {
  return openStore(storeWhere(flags, env, jobFile));
}

/**
 * The store whose suppression list `suppress` reads and writes: --state-dir, OUTREACH_STATE_DIR,
 * or the one beside --job's file. Never a guess: a list kept where no job looks protects nobody.
 */
export function suppressionStore(flags: { stateDir?: string; job?: string }, env: NodeJS.ProcessEnv = process.env): StateStore {
  if (flags.stateDir === undefined && !env.OUTREACH_STATE_DIR && flags.job === undefined) {
    throw new CliError('say whose suppression list this is: --job jobs/x.json (the state folder beside that job file), --state-dir DIR, or OUTREACH_STATE_DIR');
  }
  return storeFor(flags, flags.job, env);
}
