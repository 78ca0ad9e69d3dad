/**
 * A job file that cannot be used, with every problem found (one sentence each). `userError` tells
 * the CLI to print the message alone, no stack, and exit 2.
 */
export class JobError extends Error {
  readonly userError = true;

  constructor(
    /** The job file as the user named it. */
    readonly file: string,
    readonly problems: string[],
  ) {
    super(problems.map((p) => `${file}: ${p}`).join('\n'));
    this.name = 'JobError';
  }
}
