import type { Command } from 'commander';

/** One line per command; each module adds its command to the program. */
export function registerCommands(program: Command): void {
  void program;
}
