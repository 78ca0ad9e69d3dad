import type { Command } from 'commander';
import { importSuppressions, listSuppressions, suppressionAccount, suppressPhones, unsuppressPhones, type SuppressionAccount } from '../../app/index.js';
import type { StateStore } from '../../checkpoint/index.js';
import { CliError, ExitCode } from '../exit.js';
import { formatAdded, formatImported, formatList, formatRemoved } from '../format/suppress.js';
import { storeFor, storeOptions, usingStore, withJobStore } from '../store-root.js';

interface SuppressFlags {
  stateDir?: string;
  store?: string;
  job?: string;
  company?: string;
  reason?: string;
  defaultCountry?: string;
  json?: boolean;
}

const JOB = ['--job <file>', "the list of this job's company, numbers read with its default_country"] as const;
const COMPANY = ['--company <id>', "the company whose list it is (needed only when the store holds several companies' jobs)"] as const;
const PHONES = ['<phone...>', 'phone numbers, international (+55…) or with --default-country'] as const;
const COUNTRY = ['--default-country <cc>', "country of numbers written without a country code, e.g. BR (default: --job's default_country)"] as const;

/** --default-country, else the job of --job, whose default_country then reads numbers without a country code (a follow-up's is its earlier job's). */
function countryFlags(flags: SuppressFlags): { defaultCountry?: string; jobFile?: string } {
  return { ...(flags.defaultCountry && { defaultCountry: flags.defaultCountry }), ...(flags.job !== undefined && { jobFile: flags.job }) };
}

/** The company's list the flags mean, opened; `body` runs with it, then the store is let go. */
async function withList<T>(flags: SuppressFlags, body: (list: SuppressionAccount) => Promise<T>): Promise<T> {
  const company = companyOf(flags.company);
  const given = { ...(company !== undefined && { company }), ...(flags.job !== undefined && { jobPath: flags.job }) };
  const run = async (store: StateStore) => body(await suppressionAccount(store, given));
  return flags.job !== undefined ? withJobStore(flags, flags.job, run) : usingStore(await storeFor(flags), run);
}

function companyOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new CliError(`--company "${text}": give the platform company's id, a whole number such as 1`);
  return Number(text);
}

/** A subcommand of `suppress`: its own options, then those naming whose list it is and where it is kept. */
function onList(command: Command): Command {
  return storeOptions(command.option(...COMPANY).option(...JOB));
}

export function registerSuppress(program: Command): void {
  const suppress = program
    .command('suppress')
    .description("The suppression list: phones no job of the company messages (opt-outs, complaints, the provider's refusals), wherever its job file sits");

  onList(
    suppress
      .command('add')
      .description('Put phones on the suppression list')
      .argument(...PHONES)
      .option('--reason <text>', 'why, kept with each entry', 'added by hand')
      .option(...COUNTRY),
  ).action(async (phones: string[], flags: SuppressFlags) => {
    const { outcome, location } = await withList(flags, async (list) => ({
      outcome: await suppressPhones(list.store, phones, { ...(flags.reason && { reason: flags.reason }), ...countryFlags(flags) }),
      location: list.store.location,
    }));
    process.stdout.write(formatAdded(outcome, location));
  });

  onList(suppress.command('remove').description('Take phones off the suppression list, whoever put them there').argument(...PHONES).option(...COUNTRY)).action(async (phones: string[], flags: SuppressFlags) => {
    const result = await withList(flags, (list) => unsuppressPhones(list.store, phones, countryFlags(flags)));
    process.stdout.write(formatRemoved(result));
  });

  onList(
    suppress
      .command('import')
      .description('Put every phone of a file on the list: a CSV with a phone column, or one number a line')
      .argument('<file>', 'CSV (or TSV) with a header naming a phone column, or a plain list of numbers')
      .option(...COUNTRY)
      .option('--reason <text>', 'why, kept with each entry (default "imported from <file>")'),
  ).action(async (file: string, flags: SuppressFlags) => {
    const outcome = await withList(flags, (list) => importSuppressions(list.store, file, { ...(flags.reason && { reason: flags.reason }), ...countryFlags(flags) }));
    process.stdout.write(formatImported(file, outcome));
    if (outcome.unreadable.length > 0) process.exitCode = ExitCode.failed;
  });

  onList(suppress.command('list').description('Every phone on the list, with its source, time and reason').option('--json', 'print the entries as one JSON array')).action(async (flags: SuppressFlags) => {
    const { entries, location } = await withList(flags, async (list) => ({ entries: await listSuppressions(list.store), location: list.store.location }));
    process.stdout.write(flags.json ? `${JSON.stringify(entries, null, 2)}\n` : formatList(entries, location));
  });
}
