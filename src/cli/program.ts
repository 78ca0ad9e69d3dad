import { Command } from 'commander';
import { registerCommands } from './commands/index.js';
import { logFormatOf, setLogFormat } from './log-format.js';

/**
 * The command tree. Each command lives in cli/commands/<name>.ts and registers itself here; with the
 * process's `argv`, a command named first (`outreach status …`) is the only one loaded.
 */
export async function buildProgram(argv?: readonly string[]): Promise<Command> {
  const program = new Command();
  program
    .name('outreach')
    .description('Bulk outreach through the messaging platform: plan, run, resume and report campaigns.')
    .version('0.1.0')
    .configureOutput({ outputError: (str, write) => write(str) });
  const first = argv?.[2];
  await registerCommands(program, first === undefined || first.startsWith('-') ? undefined : first);
  forEachCommand(program, usageErrorsThrow);
  // The stderr format (--log-format, else OUTREACH_LOG_FORMAT) holds for everything the command writes there, its errors included.
  program.hook('preAction', (_program, action) => setLogFormat(logFormatOf((action.opts() as { logFormat?: string }).logFormat)));
  return program;
}

/**
 * A usage error (unknown option or command, missing or extra argument, invalid option value) throws
 * a CommanderError for main.ts to turn into exit 2, in every command: commander copies exitOverride
 * only into commands made after it is set, and a subcommand would otherwise exit 1 by itself. Its
 * message is followed by one line of usage.
 */
function usageErrorsThrow(cmd: Command): void {
  const name = commandPath(cmd);
  cmd.exitOverride().showHelpAfterError(`usage: ${name} ${cmd.usage()} (${name} --help for more)`);
  if (SENDS.includes(name)) {
    const output = cmd.configureOutput();
    cmd.configureOutput({ ...output, outputError: (str, write) => (output.outputError ?? ((s, w) => w(s)))(noDryRun(str), write) });
  }
}

/** The commands that send, where a dry-run flag is a plan in disguise. */
const SENDS: readonly string[] = ['outreach run', 'outreach resume'];

/** Flags other tools use for a dry run. */
const DRY_RUN = /^error: unknown option '(--dry[-_]?run|--dry|-n|--simulate|--no[-_]?send|--noop|--preview|--what[-_]?if)'\n$/;

/** commander's "unknown option" for a dry-run flag, as where the dry run is. */
function noDryRun(str: string): string {
  const flag = DRY_RUN.exec(str)?.[1];
  return flag === undefined ? str : `error: there is no ${flag}; \`outreach plan <job>\` is the dry run\n`;
}

function forEachCommand(cmd: Command, apply: (cmd: Command) => void): void {
  apply(cmd);
  for (const sub of cmd.commands) forEachCommand(sub, apply);
}

/** "outreach run": the names from the root down. */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
