import type { Command } from 'commander';
import { importStateFolder } from '../../app/index.js';
import { CliError } from '../exit.js';
import { formatImport, formatMigrated, refusalSentence } from '../format/store.js';
import { migrateStore, STATE_DIR_OPTION, storeImporter, storeWhere, STORE_FILE_OPTION, type StoreFlags } from '../store-root.js';

const STORE = ['--store <url>', 'the database store, postgres://user@host:5432/db (default $OUTREACH_STORE); a password on the command line shows in ps, so give it in --store-file, PGPASSFILE or PGPASSWORD'] as const;

export function registerStore(program: Command): void {
  const store = program.command('store').description("The store: create or upgrade a database store's tables, take a state folder into the store");

  store
    .command('migrate')
    .description("Create or upgrade the database store's tables, and nothing else (for runners whose database role may not create tables)")
    .option(...STORE)
    .option(...STORE_FILE_OPTION)
    .action(async (flags: StoreFlags) => {
      const { location, outcome } = await migrateStore(storeWhere(flags));
      process.stdout.write(formatMigrated(location, outcome));
    });

  store
    .command('import')
    .description(
      "Take a state folder into the store (the database with --store, else the account's state folder or the one --state-dir names): each job's state, the suppression list, the send ledger, the windows, the webhook's events, the sync bookmark; again changes nothing",
    )
    .argument('<state-folder>', 'the state folder to import (such as jobs/.outreach)')
    .option(...STORE)
    .option(...STORE_FILE_OPTION)
    .option(...STATE_DIR_OPTION)
    .action(async (folder: string, flags: StoreFlags & { stateDir?: string }) => {
      const importer = await storeImporter(storeWhere(flags), folder);
      let outcome;
      try {
        outcome = await importStateFolder(importer);
      } finally {
        await importer.close();
      }
      process.stdout.write(formatImport(outcome));
      if (outcome.refused.length > 0) throw new CliError(refusalSentence(outcome));
    });
}
