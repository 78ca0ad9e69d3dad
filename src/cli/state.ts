import { createFileStore, type StateStore } from '../checkpoint/index.js';
import { resolveStateDir } from './context.js';

/** The store of the state folder named by --state-dir, OUTREACH_STATE_DIR, or the default. */
export function storeFor(stateDirFlag: string | undefined, env: NodeJS.ProcessEnv = process.env): StateStore {
  return createFileStore(resolveStateDir(stateDirFlag, env));
}
