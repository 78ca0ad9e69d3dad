import path from 'node:path';
import type { Command } from 'commander';
import { jobReport } from '../../app/index.js';
import { CliError } from '../exit.js';
import { storeFor } from '../state.js';

interface ReportFlags {
  stateDir?: string;
  out?: string;
  format?: string;
}

export function registerReport(program: Command): void {
  program
    .command('report')
    .description('Write one row per contact: phone, status, action, ids, attempts, error, replied_at')
    .argument('<job>', 'job file (JSON)')
    .option('--out <file>', 'where to write it (default <state-dir>/<job>/report.csv, or .json)')
    .option('--format <format>', 'csv or json', 'csv')
    .option('--state-dir <dir>', 'state folder (default $OUTREACH_STATE_DIR, or .outreach beside the job file)')
    .action(async (jobPath: string, flags: ReportFlags) => {
      const format = flags.format ?? 'csv';
      if (format !== 'csv' && format !== 'json') throw new CliError(`--format: "${format}" is not a report format; use csv or json`);
      const report = await jobReport(jobPath, { store: storeFor(flags.stateDir, jobPath), format, ...(flags.out && { out: path.resolve(flags.out) }) });
      if (report.listProblem) process.stderr.write(`outreach: contacts not counted as pending: ${report.listProblem}\n`);
      process.stdout.write(`report of ${report.job}: ${report.contacts} contacts written to ${report.file}\n`);
    });
}
