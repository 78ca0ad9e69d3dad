import { csvChunks, csvChunksSync } from './csv-chunks.js';
import { safeCell, spreadsheetCell } from './csv-safe.js';
import type { ReportRow } from './report-rows.js';
import { csvOptions, reportColumns, sourceHeader, TRACKING_COLUMNS, type ReportLayout } from './report-layout.js';
import { writeFileAtomic } from '../files/atomic.js';

/** The report's CSV columns, in this order. */
export const REPORT_COLUMNS = [
  'phone',
  'status',
  'action',
  'conversation_id',
  'client_id',
  'message_id',
  'attempts',
  'error',
  'replied_at',
  'line',
  'updated_at',
  'sent_at',
  'media_left_out',
  'followups_pending',
  'http_status',
  'not_before',
  'error_code',
  'error_class',
  ...TRACKING_COLUMNS,
] as const satisfies readonly (keyof ReportRow)[];

export type ReportFormat = 'csv' | 'json';

/**
 * Streams the per-contact report to `file` (atomically): CSV with REPORT_COLUMNS, text cells
 * formula-safe and unknown values empty; or JSON, an array of the row objects.
 */
export async function writeReport(
  file: string,
  rows: Iterable<ReportRow> | AsyncIterable<ReportRow>,
  format: ReportFormat,
  layout: ReportLayout = {},
): Promise<void> {
  if (format !== 'csv') return writeFileAtomic(file, jsonChunks(rows));
  // A synchronous source (the store's rows) is written without a promise per row.
  const chunks = Symbol.iterator in rows ? reportCsv(rows, layout) : csvChunks(csvRows(rows, layout), csvOptions(layout));
  await writeFileAtomic(file, chunks);
}

/** The report's CSV text of `rows` in pieces, as `writeReport` writes it (a download streams it). */
export function reportCsv(rows: Iterable<ReportRow>, layout: ReportLayout = {}): Iterable<string> {
  return csvChunksSync(csvRowsSync(rows, layout), csvOptions(layout));
}

/** The header, then each row's cells. */
function* csvRowsSync(rows: Iterable<ReportRow>, layout: ReportLayout): Generator<string[]> {
  const { header, cellsOf } = csvLayout(layout);
  yield header;
  for (const row of rows) yield cellsOf(row);
}

async function* csvRows(rows: AsyncIterable<ReportRow>, layout: ReportLayout): AsyncGenerator<string[]> {
  const { header, cellsOf } = csvLayout(layout);
  yield header;
  for await (const row of rows) yield cellsOf(row);
}

/** The header's cells and each row's cells for the layout. */
export function csvLayout(layout: ReportLayout): { header: string[]; cellsOf(row: ReportRow): string[] } {
  const columns = reportColumns(REPORT_COLUMNS, layout);
  const sources = layout.sourceColumns ?? [];
  // The spreadsheet form writes phones, ids and long numbers so that they open as text.
  const write = layout.excel ? excelCell : (value: Parameters<typeof cell>[0]) => cell(value);
  return {
    header: [...columns, ...sources.map((h) => safeCell(sourceHeader(h, columns)))],
    cellsOf: (row) => {
      const out = new Array<string>(columns.length + sources.length);
      for (let i = 0; i < columns.length; i++) out[i] = write(row[columns[i] as (typeof columns)[number]], columns[i]);
      for (let i = 0; i < sources.length; i++) out[columns.length + i] = write(row.source_columns?.[sources[i] ?? '']);
      return out;
    },
  };
}

/** A value's cell: empty when unknown, text made formula-safe. */
export function cell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? safeCell(value) : String(value);
}

/** A value's cell in the spreadsheet form (`spreadsheetCell`), numbers included (an id is a number in the row). */
function excelCell(value: string | number | boolean | null | undefined, column?: string): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'boolean' ? String(value) : spreadsheetCell(String(value), column);
}

async function* jsonChunks(rows: Iterable<ReportRow> | AsyncIterable<ReportRow>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const row of rows) {
    yield (first ? '\n' : ',\n') + JSON.stringify(row);
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}
