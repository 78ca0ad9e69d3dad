import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';

/**
 * The command an `outreach …` argument list names (`store migrate`, `resume`), and the flags it
 * passes that the command does not take: what a scheduler would fail on (exit 2) at the first run.
 */
export async function unknownFlags(args: readonly string[]): Promise<{ command: string; unknown: string[] }> {
  let cmd: Command = await buildProgram();
  const names: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const sub = cmd.commands.find((c) => c.name() === args[i]);
    if (!sub) break;
    cmd = sub;
    names.push(sub.name());
  }
  const known = new Set(cmd.options.flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined)));
  const unknown = args.slice(i).filter((a) => a.startsWith('-') && !known.has(a.split('=')[0] ?? a));
  return { command: names.join(' '), unknown };
}
