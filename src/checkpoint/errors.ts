/**
 * The port's one write error. Every backend throws it, and only it, when a write it was asked to
 * make durable did not become durable (a full disk, a read-only folder, a database gone away): what
 * was being written may not be kept, so nothing that depends on it may go ahead. Callers branch on
 * this class, never on a backend's own codes (`ENOSPC`, a SQLSTATE…).
 */
export class StoreWriteError extends Error {
  readonly userError = true;
  /**
   * @param problem what could not be written, naming the store's place (a file, a database): "could not write the checkpoint /x/checkpoint.jsonl: the disk is full (ENOSPC)"
   * @param fix what a person does about it, as an imperative: "make room or fix the folder"
   */
  constructor(
    readonly problem: string,
    readonly fix: string,
    options?: { cause?: unknown },
  ) {
    super(`${problem}; ${fix}`, options);
    this.name = 'StoreWriteError';
  }
}

/**
 * The store cannot be reached or refuses us (a database down, credentials refused, a database that
 * does not exist): nothing was sent because of it; the process stops, exit 3.
 */
export class StoreUnavailableError extends Error {
  readonly userError = true;
  /** Exit 3: the run is aborted, not refused for bad input. */
  readonly kind = 'aborted';
  constructor(
    readonly problem: string,
    readonly fix: string,
    options?: { cause?: unknown },
  ) {
    super(`${problem}; ${fix}`, options);
    this.name = 'StoreUnavailableError';
  }
}
