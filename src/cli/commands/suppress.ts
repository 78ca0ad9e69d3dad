import type { Command } from 'commander';
import { importSuppressions, listSuppressions, suppressPhones, unsuppressPhones } from '../../app/index.js';
import { ExitCode } from '../exit.js';
import { formatAdded, formatImported, formatList, formatRemoved } from '../format/suppress.js';
import { STORE_OPTION, suppressionStore as listStore, usingStore } from '../store-root.js';

interface SuppressFlags {
  stateDir?: string;
  store?: string;
  job?: string;
  reason?: string;
  defaultCountry?: string;
  json?: boolean;
}

const STATE_DIR = ['--state-dir <dir>', 'state folder shared by the jobs it protects (default $OUTREACH_STATE_DIR)'] as const;
const JOB = ['--job <file>', "the list of this job's state folder (.outreach beside the job file)"] as const;
const COUNTRY = ['--default-country <cc>', "country of numbers written without a country code, e.g. BR (default: --job's default_country)"] as const;

/** --default-country, else the job of --job, whose default_country then reads numbers without a country code. */
function countryFlags(flags: SuppressFlags): { defaultCountry?: string; jobFile?: string } {
  return { ...(flags.defaultCountry && { defaultCountry: flags.defaultCountry }), ...(flags.job !== undefined && { jobFile: flags.job }) };
}

export function registerSuppress(program: Command): void {
  const suppress = program
    .command('suppress')
    .description('The suppression list: phones no job of the state folder (or of the database store) messages (opt-outs, complaints, the provider\'s refusals)');

  suppress
    .command('add')
    .description('Put phones on the suppression list')
    .argument('<phone...>', 'phone numbers, international (+55…) or with --default-country')
    .option('--reason <text>', 'why, kept with each entry', 'added by hand')
    .option(...COUNTRY)
    .option(...STATE_DIR)
    .option(...STORE_OPTION)
    .option(...JOB)
    .action(async (phones: string[], flags: SuppressFlags) => {
      const store = listStore(flags);
      const outcome = await usingStore(store, () => suppressPhones(store, phones, { ...(flags.reason && { reason: flags.reason }), ...countryFlags(flags) }));
      process.stdout.write(formatAdded(outcome, store.location));
    });

  suppress
    .command('remove')
    .description('Take phones off the suppression list, whoever put them there')
    .argument('<phone...>', 'phone numbers, international (+55…) or with --default-country')
    .option(...COUNTRY)
    .option(...STATE_DIR)
    .option(...STORE_OPTION)
    .option(...JOB)
    .action(async (phones: string[], flags: SuppressFlags) => {
      const result = await usingStore(listStore(flags), (store) => unsuppressPhones(store, phones, countryFlags(flags)));
      process.stdout.write(formatRemoved(result));
    });

  suppress
    .command('import')
    .description('Put every phone of a file on the list: a CSV with a phone column, or one number a line')
    .argument('<file>', 'CSV (or TSV) with a header naming a phone column, or a plain list of numbers')
    .option(...COUNTRY)
    .option('--reason <text>', 'why, kept with each entry (default "imported from <file>")')
    .option(...STATE_DIR)
    .option(...STORE_OPTION)
    .option(...JOB)
    .action(async (file: string, flags: SuppressFlags) => {
      const outcome = await usingStore(listStore(flags), (store) =>
        importSuppressions(store, file, {
          ...(flags.reason && { reason: flags.reason }),
          ...countryFlags(flags),
        }),
      );
      process.stdout.write(formatImported(file, outcome));
      if (outcome.unreadable.length > 0) process.exitCode = ExitCode.failed;
    });

  suppress
    .command('list')
    .description('Every phone on the list, with its source, time and reason')
    .option('--json', 'print the entries as one JSON array')
    .option(...STATE_DIR)
    .option(...STORE_OPTION)
    .option(...JOB)
    .action(async (flags: SuppressFlags) => {
      const store = listStore(flags);
      const entries = await usingStore(store, () => listSuppressions(store));
      process.stdout.write(flags.json ? `${JSON.stringify(entries, null, 2)}\n` : formatList(entries, store.location));
    });
}
