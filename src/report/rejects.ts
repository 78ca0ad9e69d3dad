import { createReadStream } from 'node:fs';
import type { Reject } from '../contacts/types.js';
import { csvChunks } from './csv-chunks.js';
import { csvOptions, type ReportLayout } from './report-layout.js';
import { safeCell, spreadsheetCell, unguard } from './csv-safe.js';
import { writeFileAtomic } from '../files/atomic.js';

/** The columns rejects.csv starts with; the original columns of the rows follow. */
export const REJECT_COLUMNS = ['file', 'line', 'raw_phone', 'reason', 'detail'] as const;

/**
 * Writes rejects.csv: `file,line,raw_phone,reason,detail`, then the union of the rows' original
 * columns in first-seen order. An original column named like one of ours is headed
 * `<name> (original)`. Every cell, headers included, goes through safeCell.
 * The rejects are collected first (the union of headers must be known before the first line);
 * always writes the file, with only its header when there is no reject. `excel` writes the form a
 * spreadsheet opens in any locale (BOM, `;`), as report.csv's; rejects.csv itself stays plain CSV
 * (a run reads it back).
 */
export async function writeRejects(
  file: string,
  rejects: Iterable<Reject> | AsyncIterable<Reject>,
  layout: Pick<ReportLayout, 'excel'> = {},
): Promise<number> {
  const all: Reject[] = [];
  for await (const r of rejects) all.push(r);

  const originals = unionOfColumns(all);
  const header = [...REJECT_COLUMNS, ...originals.map(originalHeading)];
  function* rows(): Generator<string[]> {
    yield header;
    for (const r of all) {
      yield [r.file, String(r.line), r.rawPhone, r.reason, r.detail, ...originals.map((c) => r.raw[c] ?? '')];
    }
  }
  await writeFileAtomic(file, csvChunks(safeRows(rows(), layout.excel === true ? header : undefined), csvOptions(layout)));
  return all.length;
}

function unionOfColumns(rejects: readonly Reject[]): string[] {
  const seen = new Set<string>();
  for (const r of rejects) for (const c of Object.keys(r.raw)) seen.add(c);
  return [...seen];
}

function originalHeading(column: string): string {
  return (REJECT_COLUMNS as readonly string[]).includes(column) ? `${column} (original)` : column;
}

/** Every cell formula-safe; in the spreadsheet form (`header` given), phones and long numbers as text (`spreadsheetCell`). */
function* safeRows(rows: Iterable<string[]>, header?: readonly string[]): Generator<string[]> {
  let first = true;
  for (const row of rows) {
    yield header === undefined || first ? row.map(safeCell) : row.map((value, i) => spreadsheetCell(value, header[i]));
    first = false;
  }
}

/**
 * rejects.csv read back as the rejects it was written from (the formula guard and the `(original)`
 * headings undone): a run that could not read the whole list keeps the rows it did not reach. A
 * missing file is none.
 */
export async function readRejects(file: string): Promise<Reject[]> {
  // The CSV parser only when a file is read back: status loads this module and reads none.
  const { parse } = await import('csv-parse');
  const out: Reject[] = [];
  let records: AsyncIterable<string[]>;
  try {
    const input = createReadStream(file);
    const parser = input.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true }));
    input.once('error', (err) => parser.destroy(err));
    records = parser as AsyncIterable<string[]>;
    let header: string[] | undefined;
    for await (const record of records) {
      const cells = record.map(unguard);
      if (!header) {
        header = cells;
        continue;
      }
      const raw: Record<string, string> = {};
      header.slice(REJECT_COLUMNS.length).forEach((heading, i) => {
        const cell = cells[REJECT_COLUMNS.length + i];
        if (cell !== undefined) raw[heading.replace(/ \(original\)$/, '')] = cell;
      });
      const [file = '', line = '', rawPhone = '', reason = '', detail = ''] = cells;
      out.push({ file, line: Number(line), rawPhone, reason: reason as Reject['reason'], detail, raw });
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return out;
}
