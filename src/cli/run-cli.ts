import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { ExitCode, isUserError, userErrorExitCode } from './exit.js';
import { stamped } from './stamp.js';
import { logFormat, logFormatOf, setLogFormat, stderrLine } from './log-format.js';

/**
 * The whole command line, in-process: parses `argv`, runs the command, and returns the exit code.
 * Errors meant for people are printed as one sentence; anything else is a bug, printed with its stack.
 */
export async function runCli(argv: string[]): Promise<ExitCode> {
  const program = await buildProgram(argv); // every command throws its usage errors (program.ts)
  process.exitCode = undefined;
  setLogFormat(envLogFormat());
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? (process.exitCode as ExitCode) : ExitCode.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here with code 0; usage errors (commander's code 1) are invalid
      // input, exit 2, whichever command and however deep in an async action they arise.
      return usageExit(err.exitCode);
    }
    if (isUserError(err)) {
      if (logFormat() === 'json') stderrLine('error', 'error', err.message);
      else process.stderr.write(`${stamped(`outreach: ${err.message}`, process.stderr.isTTY)}\n`);
      return userErrorExitCode(err);
    }
    if (logFormat() === 'json') {
      stderrLine('error', 'bug', `unexpected error, this is a bug; please report it with the run.log of the job: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return ExitCode.aborted;
    }
    process.stderr.write(
      `outreach: unexpected error, this is a bug; please report it with the run.log of the job\n${
        err instanceof Error ? (err.stack ?? err.message) : String(err)
      }\n`,
    );
    return ExitCode.aborted;
  } finally {
    process.exitCode = undefined;
  }
}

/** OUTREACH_LOG_FORMAT, or sentences when it is not one (the command's hook then refuses it in one sentence). */
function envLogFormat() {
  try {
    return logFormatOf(undefined);
  } catch {
    return 'sentences' as const;
  }
}

/** A CommanderError's exit code as ours: 0 stays 0, commander's 1 is a usage error (2), and a code a command chose is kept. */
function usageExit(code: number): ExitCode {
  const ours: readonly number[] = Object.values(ExitCode);
  if (code === 1 || !ours.includes(code)) return ExitCode.invalid;
  return code as ExitCode;
}
