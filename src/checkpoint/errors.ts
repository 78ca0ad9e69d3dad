/**
 * The port's one write error. Every backend throws it, and only it, when a write it was asked to
 * make durable did not become durable (a full disk, a read-only folder, a database gone away): what
 * was being written may not be kept, so nothing that depends on it may go ahead. Callers branch on
 * this class, never on a backend's own codes (`ENOSPC`, a SQLSTATE…).
 *
 * Both errors keep `fix` to what a person does about the store itself ("make room or fix the
 * folder"), never the command to run after it: the caller knows that step and adds it once, in
 * order (`thenStep`), so that one sentence never tells the same step twice.
 */
export class StoreWriteError extends Error {
  readonly userError = true;
  /**
   * @param problem what could not be written, naming the store's place (a file, a database): "could not write the checkpoint /x/checkpoint.jsonl: the disk is full (ENOSPC)"
   * @param fix what a person does about the store, as an imperative: "make room or fix the folder"
   * @param options.then the step after the fix that the message (not `fix`) ends with, for a command that prints the error as it is
   */
  constructor(
    readonly problem: string,
    readonly fix: string,
    options?: { cause?: unknown; then?: string },
  ) {
    super(`${problem}; ${options?.then === undefined ? fix : thenStep(fix, options.then)}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StoreWriteError';
  }
}

/**
 * The store cannot be reached or refuses us (a database down, credentials refused, a database that
 * does not exist): nothing was sent because of it; the process stops, exit 3. Its message ends with
 * "then run again"; `fix` is the part before it.
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
    super(`${problem}; ${thenStep(fix, 'run again')}`, options);
    this.name = 'StoreUnavailableError';
  }
}

/** "fix, then step": a fix that ends with its own `;` (a list of SQL statements) takes no comma. */
export function thenStep(fix: string, step: string): string {
  return `${fix}${fix.endsWith(';') ? '' : ','} then ${step}`;
}
