import { Command } from 'commander';
import { registerCommands } from './commands/index.js';

/** The whole command tree. Each command lives in cli/commands/<name>.ts and registers itself here. */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('outreach')
    .description('Bulk outreach through the messaging platform: plan, run, resume and report campaigns.')
    .version('0.1.0')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (str, write) => write(str) });
  registerCommands(program);
  return program;
}
