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
