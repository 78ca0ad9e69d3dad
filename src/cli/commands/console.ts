import type { Command } from 'commander';
import { untilStopped } from '../api-command.js';
import { DEFAULT_CONSOLE_PORT, consoleSettings, runConsole, type ConsoleFlags } from '../console-session.js';
import { LOCALE_OPTION, TZ_OPTION } from '../format/time.js';
import { consoleLogger, flushLogger, LOG_FORMAT_OPTION } from '../logger.js';
import { STATE_DIR_OPTION, STORE_FILE_OPTION, STORE_OPTION } from '../store-root.js';

export function registerConsole(program: Command): void {
  program
    .command('console')
    .description("A live web page over the store's jobs: each one's state, counts, rate, funnel, failures and recipients, updating by itself; stop a run from it")
    .option('--port <n>', 'port to listen on (0 = any free port)', String(DEFAULT_CONSOLE_PORT))
    .option('--host <address>', 'address to listen on; off loopback it needs OUTREACH_CONSOLE_TOKEN', '127.0.0.1')
    .option(...STATE_DIR_OPTION)
    .option(...STORE_OPTION)
    .option(...STORE_FILE_OPTION)
    .option(TZ_OPTION[0], "time zone of the times the pages show (IANA name, e.g. America/Sao_Paulo; default: $TZ, else this machine's)")
    .option(LOCALE_OPTION[0], 'how the pages write figures and times, e.g. pt-BR (4.521, 28/11/2026); default: $LC_ALL, else $LANG; the CSV download never changes')
    .option(...LOG_FORMAT_OPTION)
    .addHelpText(
      'after',
      '\nIt reads the store the runs write (the account\'s state folder of this user by default, or the one --state-dir,\nOUTREACH_STATE_DIR, --store-file, OUTREACH_STORE_FILE, --store or OUTREACH_STORE names) and answers GET /healthz\nand GET /metrics too. On 127.0.0.1 it is open to this machine only; on any other address it starts only with\nOUTREACH_CONSOLE_TOKEN set, and asks every visitor for it (a sign-in page, or Authorization: Bearer or basic auth).\nSee docs/watching.md.',
    )
    .action(async (flags: ConsoleFlags) => {
      const settings = consoleSettings(flags);
      const logger = consoleLogger();
      try {
        await untilStopped((stop) => runConsole(settings, { out: process.stdout, logger, stop }));
      } finally {
        await flushLogger(logger);
      }
    });
}
