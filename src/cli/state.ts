import { createFileStore, type StateStore } from '../checkpoint/index.js';
import { resolveStateDir } from './context.js';

/** The store of the state folder named by --state-dir, OUTREACH_STATE_DIR, or the default: beside the job file, or (no job: suppress) in the working directory. */
export function storeFor(stateDirFlag: string | undefined, jobFile?: string, env: NodeJS.ProcessEnv = process.env): StateStore {
  return createFileStore(resolveStateDir(stateDirFlag, env, jobFile));
}
