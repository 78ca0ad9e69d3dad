import type { Command } from 'commander';
import { jobZone, showContact } from '../../app/index.js';
import { formatStory } from '../format/show.js';
import { LOCALE_OPTION, readersOf, TZ_OPTION } from '../format/time.js';
import { STORE_OPTION, storeFor, usingStore } from '../store-root.js';

export function registerShow(program: Command): void {
  program
    .command('show')
    .description("One contact's story: its row, its message, every request and answer, ids, delivery, reply, and what resume would do (no platform)")
    .argument('<job>', 'job file (JSON)')
    .argument('<phone>', 'the phone, as in the list or as +<country><number>')
    .option('--json', 'print the story as one JSON object')
    .option('--state-dir <dir>', 'state folder (default $OUTREACH_STATE_DIR or .outreach)')
    .option(...STORE_OPTION)
    .option(...TZ_OPTION)
    .option(...LOCALE_OPTION)
    .action(async (jobPath: string, phone: string, flags: { json?: boolean; stateDir?: string; store?: string; tz?: string; locale?: string }) => {
      const zone = readersOf(flags, await jobZone(jobPath));
      const story = await usingStore(storeFor(flags, jobPath), (store) => showContact(jobPath, phone, { store }));
      process.stdout.write(flags.json ? `${JSON.stringify(story, null, 2)}\n` : formatStory(story, zone));
    });
}
