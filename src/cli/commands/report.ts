import path from 'node:path';
import type { Command } from 'commander';
// Its own modules, not app/index.js: a fresh report loads no more than it uses (no API client).
import { jobReport } from '../../app/report/job-report.js';
import { jobZone } from '../../app/report/job-zone.js';
import { CliError } from '../exit.js';
import { LOCALE_OPTION, readersOf, TZ_OPTION } from '../format/time.js';
import { STATE_DIR_OPTION, STORE_OPTION, withJobStore, STORE_FILE_OPTION } from '../store-root.js';

interface ReportFlags {
  stateDir?: string;
  store?: string;
  out?: string;
  format?: string;
  excel?: boolean;
  columns?: boolean | string;
  tz?: string;
  locale?: string;
}

export function registerReport(program: Command): void {
  program
    .command('report')
    .description('Write one row per contact (ids, delivery, the row it came from), or report.html: one page with the funnel and charts')
    .argument('<job>', 'job file (JSON)')
    .option('--out <file>', 'where to write it (default <state-dir>/<job>/report.csv, report.xlsx.csv with --excel, or .json, or .html)')
    .option('--format <format>', 'csv, json or html', 'csv')
    .option('--excel', 'CSV any spreadsheet opens in its own locale (UTF-8 with BOM, ";" between cells): report.xlsx.csv and rejects.xlsx.csv, beside report.csv and rejects.csv')
    .option('--columns [names]', "add the contact list's own columns: all, or these (comma-separated headers)")
    .option(...STATE_DIR_OPTION)
    .option(...STORE_OPTION)
    .option(...STORE_FILE_OPTION)
    .option(TZ_OPTION[0], "time zone of the times report.html shows (IANA name, e.g. America/Sao_Paulo; default: $TZ, else the job's default_timezone, else this machine's); the CSV and JSON keep ISO 8601")
    .option(LOCALE_OPTION[0], 'how report.html writes figures and times, e.g. pt-BR (default: $LC_ALL, else $LANG); the CSV and JSON never change')
    .action(async (jobPath: string, flags: ReportFlags) => {
      const people = readersOf(flags, await jobZone(jobPath));
      const format = flags.format ?? 'csv';
      if (format !== 'csv' && format !== 'json' && format !== 'html') throw new CliError(`--format: "${format}" is not a report format; use csv, json or html`);
      const columns = typeof flags.columns === 'string' ? flags.columns.split(',').map((c) => c.trim()).filter((c) => c !== '') : flags.columns;
      const report = await withJobStore(flags, jobPath, (store) =>
        jobReport(jobPath, {
          store,
          format,
          ...(flags.out && { out: path.resolve(flags.out) }),
          ...(flags.excel && { excel: true }),
          ...(columns !== undefined && { columns }),
          zone: people.zone,
          ...(people.locale !== undefined && { locale: people.locale }),
        }),
      );
      if (report.listProblem) process.stderr.write(`outreach: contacts not counted as pending: ${report.listProblem}\n`);
      process.stdout.write(`report of ${report.job}: ${report.contacts} contacts written to ${report.file}\n`);
      if (report.rejects) process.stdout.write(`rejects of ${report.job}: ${report.rejects.rows} row${report.rejects.rows === 1 ? '' : 's'} written to ${report.rejects.file}\n`);
    });
}
