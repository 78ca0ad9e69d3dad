/**
 * A fatal problem with the input files that the user must fix (missing file, broken quote,
 * invalid JSON, no phone column, ...). The message is one sentence naming the file, the line
 * when there is one, and the fix. The CLI prints it without a stack trace.
 */
export class InputError extends Error {
  readonly userError = true;
  override readonly name = 'InputError';
  /** The file at fault, as given to the loader. */
  readonly file: string;
  /** 1-based line at fault, when known. */
  readonly line: number | undefined;

  constructor(message: string, file: string, line?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.file = file;
    this.line = line;
  }
}
