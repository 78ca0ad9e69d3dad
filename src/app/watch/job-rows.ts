import type { StateStore, StoredJob } from '../../checkpoint/index.js';
import { reportRowsOf, type ReportLayout, type ReportRow } from '../../report/index.js';
import { armFor } from '../experiment/index.js';
import { loadJobReport, reportRowsFor, reportLayout } from '../report/index.js';
import { repliesOf } from '../delivery/index.js';
import type { JobSource } from './job-source.js';

/** A job's report rows as `report` writes report.csv: its layout, and its rows one at a time, in the file's order. */
export interface JobRows {
  layout: ReportLayout;
  rows(): Iterable<ReportRow>;
}

/**
 * The report's rows of a stored job: with its job file, exactly `report`'s (the list's contacts never
 * reached as pending, each row's source in the list, an experiment's arm); without one, the store's
 * contacts alone, in the layout the state's pinned content says (variants, a pool).
 */
export async function jobRows(whole: StateStore, stored: StoredJob, source: JobSource, now: number): Promise<JobRows | undefined> {
  if (source.kind === 'job_file') {
    const report = await loadJobReport(source.loaded.jobFile, whole, { now });
    const { job, view, listing, replies } = report;
    const layout = { ...reportLayout(report, {}), arms: job.experiment !== undefined, numbers: job.channels.length > 1 };
    const { experiment } = job;
    const winner = report.experiment?.decision?.winner;
    return {
      layout,
      rows: () => {
        const plain = reportRowsFor(view.states, listing, replies);
        return experiment ? armed(plain, (phone) => armFor(phone, { name: job.name, experiment }, winner)) : plain;
      },
    };
  }
  const view = await whole.readJob(stored.key);
  if (view === undefined) return undefined;
  const replies = await repliesOf(whole, view.states);
  const content = view.header?.content ?? {};
  const message = content.message as { variants?: unknown } | undefined;
  const layout = { variants: Array.isArray(message?.variants) && message.variants.length > 0, numbers: Array.isArray(content.channel_id) };
  return { layout, rows: () => reportRowsOf(view.states, { replies }) };
}

/** The rows with their experiment's arm, as `report` writes them (withArms, one at a time without a promise each). */
function* armed(rows: Iterable<ReportRow>, armOf: (phone: string) => string | undefined): Generator<ReportRow> {
  for (const row of rows) {
    const arm = armOf(row.phone);
    yield arm === undefined ? row : { ...row, arm };
  }
}
