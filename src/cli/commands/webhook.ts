import type { Command } from 'commander';
import { untilStopped } from '../api-command.js';
import { STORE_OPTION, STATE_DIR_OPTION, STORE_FILE_OPTION } from '../store-root.js';
import { consoleLogger, flushLogger, LOG_FORMAT_OPTION } from '../logger.js';
import { DEFAULT_WEBHOOK_PORT, runWebhook, webhookSettings, type WebhookFlags } from '../webhook-session.js';

export function registerWebhook(program: Command): void {
  program
    .command('webhook')
    .description("Receive the platform's signed chat.message webhooks: replies and 24-hour windows")
    .option('--port <n>', 'port to listen on (0 = any free port)', String(DEFAULT_WEBHOOK_PORT))
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option(...STATE_DIR_OPTION)
    .option(...STORE_OPTION)
    .option(...STORE_FILE_OPTION)
    .option('--base-url <url>', 'platform address for phone look-ups (default $OUTREACH_BASE_URL)')
    .option('--token-file <file>', 'file holding the integration token (default $OUTREACH_TOKEN); without one, no phone look-ups')
    .option('--log-file <file>', 'also append what it logs to this file, as JSON lines')
    .option('--company <id>', "the company of a reply in a conversation no job started, when the store holds several companies' jobs (otherwise the store's only company)")
    .option('--spool <dir>', 'keep the deliveries the store cannot take in this folder until it is back (default $OUTREACH_WEBHOOK_SPOOL, else webhook-spool/ in the state folder)')
    .option(...LOG_FORMAT_OPTION)
    .addHelpText(
      'after',
      '\nThe signing secret comes from OUTREACH_WEBHOOK_SECRET; each delivery is checked against its header\nX-Service-Signature: sha256=<hex>. It records into the runs\' store: the account\'s state folder of this\nuser by default, or the one --state-dir, OUTREACH_STATE_DIR, --store-file, OUTREACH_STORE_FILE, --store or OUTREACH_STORE names.\nA delivery the store cannot take within 4 s (a database down) is still answered 200: it waits in the\nspool folder and is applied when the store is back. Put a reverse proxy with TLS in front and register\nhttps://<its public name>/ as the webhook URL under Integrations; run `outreach sync` now and then\nfor anything it missed.',
    )
    .action(async (flags: WebhookFlags & { logFile?: string }) => {
      const settings = await webhookSettings(flags);
      const logger = consoleLogger({ logFile: flags.logFile });
      try {
        await untilStopped((stop) => runWebhook(settings, { out: process.stdout, logger, stop }));
      } finally {
        await flushLogger(logger);
        // A database connection still waiting on a pooler (the database down) does not keep a stopped receiver alive: what it held is in the spool.
        setTimeout(() => process.exit(), 1_000).unref();
      }
    });
}
