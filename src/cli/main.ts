#!/usr/bin/env node
import { CommanderError } from 'commander';
import { buildProgram } from './program.js';
import { ExitCode, isUserError, userErrorExitCode } from './exit.js';

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  program.exitOverride();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here with code 0; usage errors are invalid input.
      return err.exitCode === 0 ? ExitCode.ok : ExitCode.invalid;
    }
    if (isUserError(err)) {
      process.stderr.write(`outreach: ${err.message}\n`);
      return userErrorExitCode(err);
    }
    process.stderr.write(
      `outreach: unexpected error, this is a bug; please report it with the run.log of the job\n${
        err instanceof Error ? (err.stack ?? err.message) : String(err)
      }\n`,
    );
    return ExitCode.aborted;
  }
}

main(process.argv).then((code) => {
  process.exitCode = code;
});
