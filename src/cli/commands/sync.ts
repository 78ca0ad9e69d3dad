import type { Command } from 'commander';
import { untilStopped } from '../api-command.js';
import { consoleLogger, flushLogger, LOG_FORMAT_OPTION } from '../logger.js';
import { STORE_OPTION, STATE_DIR_OPTION, STORE_FILE_OPTION } from '../store-root.js';
import { METRICS_FILE_OPTION, PUSHGATEWAY_OPTION } from '../metrics-options.js';
import { runSync, syncSettings, type SyncFlags } from '../sync-session.js';

export { runSync, syncSettings, type SyncSettings } from '../sync-session.js';

export function registerSync(program: Command): void {
  program
    .command('sync')
    .description('Poll the platform for messages the webhook missed')
    .option('--since <iso>', 'list conversations changed since this date-time instead of since the last sync')
    .option(...STATE_DIR_OPTION)
    .option(...STORE_OPTION)
    .option(...STORE_FILE_OPTION)
    .option('--base-url <url>', 'platform address (default $OUTREACH_BASE_URL)')
    .option('--token-file <file>', 'file holding the integration token (default $OUTREACH_TOKEN)')
    .option('--json', 'print the result as one JSON object')
    .option('--log-file <file>', 'also append what it logs to this file, as JSON lines')
    .option('--company <id>', "the company of a reply in a conversation no job started, when the store holds several companies' jobs (otherwise the store's only company)")
    .option(...METRICS_FILE_OPTION)
    .option(...PUSHGATEWAY_OPTION)
    .option(...LOG_FORMAT_OPTION)
    .action(async (flags: SyncFlags) => {
      const settings = await syncSettings(flags);
      const logger = consoleLogger({ logFile: flags.logFile });
      try {
        await untilStopped((signal) => runSync(settings, { out: process.stdout, logger, signal }));
      } finally {
        await flushLogger(logger);
      }
    });
}
