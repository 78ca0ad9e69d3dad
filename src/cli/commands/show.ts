import type { Command } from 'commander';
import { jobZone, showContact } from '../../app/index.js';
import { formatStory } from '../format/show.js';
import { LOCALE_OPTION, readersOf, TZ_OPTION } from '../format/time.js';
import { STATE_DIR_OPTION, STORE_OPTION, withJobStore, STORE_FILE_OPTION } from '../store-root.js';

export function registerShow(program: Command): void {
  program
    .command('show')
    .description("One contact's story: its row, its message, every request and answer, ids, delivery, reply, and what resume would do (no platform)")
    .argument('<job>', 'job file (JSON)')
    .argument('<phone>', 'the phone, as in the list or as +<country><number>')
    .option('--json', 'print the story as one JSON object')
    .option(...STATE_DIR_OPTION)
    .option(...STORE_OPTION)
    .option(...STORE_FILE_OPTION)
    .option(...TZ_OPTION)
    .option(...LOCALE_OPTION)
    .action(async (jobPath: string, phone: string, flags: { json?: boolean; stateDir?: string; store?: string; tz?: string; locale?: string }) => {
      const zone = readersOf(flags, await jobZone(jobPath));
      const story = await withJobStore(flags, jobPath, (store) => showContact(jobPath, phone, { store }));
      process.stdout.write(flags.json ? `${JSON.stringify(story, null, 2)}\n` : formatStory(story, zone));
    });
}
