/** Exit codes shared by every command (the README lists them; cron jobs depend on them). */
export const ExitCode = {
  /** Everything went as planned. */
  ok: 0,
  /** Finished, but some contacts failed or are in doubt. */
  failed: 1,
  /** Invalid input or configuration: nothing was sent. */
  invalid: 2,
  /** Aborted: token refused, failure ratio exceeded, or interrupted. */
  aborted: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * An error a user can meet and fix: printed as its one-sentence message, no stack trace.
 * Other folders signal user errors with a `userError: true` property (they may not import cli/);
 * `toCliError` turns either into this.
 */
export class CliError extends Error {
  readonly userError = true;
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.invalid,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** True for errors meant for people (ours, the use-cases' AppError, or any folder's `userError` errors). */
export function isUserError(err: unknown): err is Error & { userError: true; exitCode?: ExitCode; kind?: string } {
  return err instanceof Error && (err as { userError?: unknown }).userError === true;
}

/** The exit code of an error meant for people: its own, else by its kind (an aborted use-case is 3), else invalid input. */
export function userErrorExitCode(err: Error & { exitCode?: ExitCode; kind?: string }): ExitCode {
  return err.exitCode ?? (err.kind === 'aborted' ? ExitCode.aborted : ExitCode.invalid);
}

/** The exit code of a finished run or a status: stopped early 3, contacts not done (or deferred past a window no run came in) 1, else 0. */
export function outcomeExitCode(outcome: { stopped?: unknown; notDone: number; missedWindows?: unknown }): ExitCode {
  if (outcome.stopped) return ExitCode.aborted;
  return outcome.notDone > 0 || outcome.missedWindows !== undefined ? ExitCode.failed : ExitCode.ok;
}
