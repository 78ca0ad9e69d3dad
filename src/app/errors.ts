/**
 * The one domain error of the use-cases: a sentence for people, and what kind of ending it is.
 * `invalid`: the input or the setup is wrong and nothing was sent. `aborted`: the work stopped
 * (the token was refused, the platform cannot be reached, the state cannot be written).
 * The command line maps the kind to its exit code; other programs branch on it.
 */
export type AppErrorKind = 'invalid' | 'aborted';

export class AppError extends Error {
  readonly userError = true;
  constructor(
    message: string,
    readonly kind: AppErrorKind = 'invalid',
  ) {
    super(message);
    this.name = 'AppError';
  }
}
