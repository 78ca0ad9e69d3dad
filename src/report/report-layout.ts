import type { ReportRow } from './report-rows.js';

/** The columns `track` and the contact list add, after the run's own (another issue's columns go before these). */
export const TRACKING_COLUMNS = [
  'name',
  'phone_as_written',
  'source_file',
  'source_line',
  'variant',
  'arm',
  'channel_id',
  'delivery_status',
  'delivered_at',
  'read_at',
  'failure_code',
] as const satisfies readonly (keyof ReportRow)[];

/** How report.csv is laid out beyond its fixed columns. */
export interface ReportLayout {
  /** For a spreadsheet in any locale: UTF-8 with a byte-order mark, `;` between cells (still formula-safe). */
  excel?: boolean;
  /** Whether the job has message variants (the `variant` column is left out otherwise). */
  variants?: boolean;
  /** Whether the job is an experiment (the `arm` column is left out otherwise). */
  arms?: boolean;
  /** Whether the job is a pool of numbers (the `channel_id` column is left out otherwise). */
  numbers?: boolean;
  /** Headers of the contact list's own columns to add at the end, in this order. */
  sourceColumns?: readonly string[];
}

/** The fixed columns in force: all of them, less `variant` when the job has no variants. */
export function reportColumns<C extends string>(all: readonly C[], layout: ReportLayout): C[] {
  return all.filter((c) => (c !== 'variant' || layout.variants === true) && (c !== 'arm' || layout.arms === true) && (c !== 'channel_id' || layout.numbers === true));
}

/** A source column's header in the report: as written, or `source:<header>` when a report column has that name. */
export function sourceHeader(header: string, columns: readonly string[]): string {
  return columns.includes(header) ? `source:${header}` : header;
}

/** csv-stringify's options and the file's first bytes for the layout. */
export function csvOptions(layout: ReportLayout): { delimiter: string; bom: boolean } {
  return layout.excel ? { delimiter: ';', bom: true } : { delimiter: ',', bom: false };
}
