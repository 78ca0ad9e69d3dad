import { type Command, InvalidArgumentError } from 'commander';
import { CHANNEL_ACTIVE_STATUS } from '../../api/index.js';
import { table, withApi } from '../api-command.js';

interface ChannelsFlags {
  companyId: number;
  baseUrl?: string;
  tokenFile?: string;
  json?: boolean;
}

export function registerChannels(program: Command): void {
  program
    .command('channels')
    .description("List the company's channels (id, type, name) to find channel_id")
    .requiredOption('--company-id <n>', 'the company whose channels to list', positiveInteger)
    .option('--base-url <url>', 'platform base URL (default $OUTREACH_BASE_URL)')
    .option('--token-file <file>', 'file holding the integration token (default $OUTREACH_TOKEN)')
    .option('--json', 'print the channels as JSON')
    .action(async (flags: ChannelsFlags) => {
      const channels = await withApi(flags, (api) => api.listChannels(flags.companyId));
      channels.sort((a, b) => a.id - b.id);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(channels, null, 2)}\n`);
        return;
      }
      if (channels.length === 0) {
        process.stdout.write(`company ${flags.companyId} has no channels\n`);
        return;
      }
      const rows = channels.map((c) => [
        String(c.id),
        c.type,
        c.status === CHANNEL_ACTIVE_STATUS ? 'active' : `inactive (${c.status})`,
        c.name,
      ]);
      process.stdout.write(table(['ID', 'TYPE', 'STATUS', 'NAME'], rows));
    });
}

function positiveInteger(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('give a positive integer id');
  return Number(value);
}
