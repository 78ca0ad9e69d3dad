import type { StoreWriteError } from '../checkpoint/index.js';
import { AppError } from './errors.js';

/** A run stopped because the store could not keep a write: nothing more was sent (exit 3), and what to do. */
export function storeStopped(err: StoreWriteError): AppError {
  return new AppError(`${err.problem}; nothing more was sent: ${err.fix}, then run \`outreach resume\``, 'aborted');
}
