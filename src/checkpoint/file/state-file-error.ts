import { StoreWriteError } from '../errors.js';

/** A state file the store cannot use: a person must fix it (one sentence, exit 2, nothing sent). */
export class StateFileError extends Error {
  readonly userError = true;
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'StateFileError';
  }
}

/** What the file system said of a state file, as one sentence with the fix; anything else is returned as it is. */
export function stateFileError(err: unknown, file: string): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EISDIR':
      return new StateFileError(`${file} is a folder, not a state file; move it out of the way or pass another --state-dir`, { cause: err });
    case 'ENOTDIR':
      return new StateFileError(`${file}: a part of this path is a file, not a folder; move it out of the way or pass another --state-dir`, { cause: err });
    case 'EACCES':
    case 'EPERM':
      return new StateFileError(`cannot read or write ${file} (${code}); fix its permissions or pass another --state-dir`, { cause: err });
    case 'ENOSPC':
    case 'EDQUOT':
      return new StateFileError(`cannot write ${file}: the disk is full (${code}); free some space and run again`, { cause: err });
    case 'EROFS':
      return new StateFileError(`cannot write ${file}: the file system is read-only; pass a writable --state-dir`, { cause: err });
    default:
      return err;
  }
}

/**
 * A write of a state file that did not become durable, as the port's StoreWriteError: `what` names
 * the file for people ("the ledger"); the file system's code, when known, says why and what to do.
 * An error that already is one is returned as it is.
 */
export function storeWriteError(err: unknown, file: string, what: string): StoreWriteError {
  if (err instanceof StoreWriteError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const [why, fix] = ((): [string, string] => {
    switch (code) {
      case 'ENOSPC':
      case 'EDQUOT':
        return [`the disk is full (${code})`, 'make room or fix the folder'];
      case 'EISDIR':
      case 'ENOTEMPTY':
        return ['a folder is in its place', 'move it out of the way or pass another --state-dir'];
      case 'EACCES':
      case 'EPERM':
        return [`it may not be written (${code})`, 'fix its permissions or pass another --state-dir'];
      case 'EROFS':
        return ['the file system is read-only', 'pass a writable --state-dir'];
      default:
        return [err instanceof Error ? err.message : String(err), 'make room or fix the folder'];
    }
  })();
  return new StoreWriteError(`could not write ${what} ${file}: ${why}`, fix, { cause: err });
}
