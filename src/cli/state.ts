import { createFileStore, type StateStore } from '../checkpoint/index.js';
import { resolveStateDir } from './context.js';
import { CliError } from './exit.js';

/** The store of the state folder named by --state-dir, OUTREACH_STATE_DIR, or the default: beside the job file, or (no job: suppress) in the working directory. */
export function storeFor(stateDirFlag: string | undefined, jobFile?: string, env: NodeJS.ProcessEnv = process.env): StateStore {
  return createFileStore(resolveStateDir(stateDirFlag, env, jobFile));
}

/**
 * The state folder whose suppression list `suppress` reads and writes: --state-dir, OUTREACH_STATE_DIR,
 * or the one beside --job's file. Never a guess: a list kept where no job looks protects nobody.
 */
export function suppressionStore(flags: { stateDir?: string; job?: string }, env: NodeJS.ProcessEnv = process.env): StateStore {
  if (flags.stateDir === undefined && !env.OUTREACH_STATE_DIR && flags.job === undefined) {
    throw new CliError('say whose suppression list this is: --job jobs/x.json (the state folder beside that job file), --state-dir DIR, or OUTREACH_STATE_DIR');
  }
  return storeFor(flags.stateDir, flags.job, env);
}
