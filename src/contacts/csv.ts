/** CSV and TSV: the header, then a stream of rows with the line each starts on. */
import { Readable, pipeline } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { batches } from './batches.js';
import { type Delimiter, detectDelimiter, excelSeparator, firstLine } from './detect.js';
import { InputError } from './errors.js';
import { type CsvBatch, PlainLines, type PlainScan, isBlank, rowsOf } from './csv-plain.js';
import { type Source, asInputError, csvInput, textChunks } from './source.js';

export { isBlank, type CsvBatch } from './csv-plain.js';

/** A row longer than this is a runaway quote or not a CSV; it stops the load instead of eating memory. */
export const MAX_RECORD_CHARS = 1_000_000;

export interface CsvLayout {
  delimiter: Delimiter;
  /** 1-based line of the header: 1, or 2 after Excel's `sep=;` line or a blank first line. */
  headerLine: number;
  headers: string[];
}

/**
 * Reads the header from the start of the file: skips an Excel `sep=` line and blank lines,
 * takes the delimiter from the caller, the `sep=` line, the .tsv extension or the header
 * line itself (the commonest of `,` `;` tab).
 */
export function readHeader(source: Source, delimiter: Delimiter | undefined): CsvLayout {
  const { file } = source;
  let text = source.sample;
  let headerLine = 1;
  const sep = excelSeparator(firstLine(text));
  if (sep !== undefined) {
    text = text.slice(text.indexOf('\n') + 1);
    headerLine++;
  }
  const blank = /^(?:[ \t]*\r?\n)*/.exec(text)![0];
  if (blank !== '') {
    headerLine += blank.split('\n').length - 1;
    text = text.slice(blank.length);
  }
  if (!source.complete && !text.includes('\n')) {
    throw new InputError(
      `${file} line ${headerLine}: the header row is longer than 64 KB; check that the file is a CSV with a header row naming the columns`,
      file,
      headerLine,
    );
  }
  const chosen = delimiter ?? sep ?? (source.format === 'tsv' ? '\t' : detectDelimiter(firstLine(text)));

  let records: string[][];
  try {
    records = parseSync(text, {
      delimiter: chosen,
      to: 1,
      relax_column_count: true,
      relax_quotes: true,
      max_record_size: MAX_RECORD_CHARS,
    });
  } catch (err) {
    if (err instanceof CsvError && err.code === 'CSV_QUOTE_NOT_CLOSED' && !source.complete) {
      throw new InputError(
        `${file} line ${headerLine}: the header row does not end within the first 64 KB, most likely because a quote opens in it and never closes; close it or remove it`,
        file,
        headerLine,
      );
    }
    throw csvInputError(err, file, headerLine);
  }
  const headers = records[0];
  if (headers === undefined || headers.every((h) => h.trim() === '')) {
    throw new InputError(
      `${file} line ${headerLine}: the header row is empty; the first line must name the columns, such as phone,name`,
      file,
      headerLine,
    );
  }
  return { delimiter: chosen, headerLine, headers };
}

/**
 * The data rows after the header, streamed (backpressure kept) a batch at a time. Blank lines
 * and rows of only empty cells are skipped. A row's line is where it starts: a row spans one
 * line plus one for each line break inside its quoted cells. Plain lines (no quote, no stray
 * carriage return) are split by hand (csv-plain.ts); from the first line that is not, csv-parse
 * reads the rest of the file (all of it when that line comes before the first row).
 */
export async function* csvBatches(source: Source, layout: CsvLayout): AsyncGenerator<CsvBatch> {
  for await (const read of csvReads(source, layout)) yield read.kind === 'plain' ? rowsOf(read.scan) : read.batch;
}

/** The rows as csvBatches reads them: plain lines as offsets into their text (no cell string made yet), the rest as csv-parse's rows. */
export type CsvRead = { kind: 'plain'; scan: PlainScan } | { kind: 'parsed'; batch: CsvBatch };

/** csvBatches' read, its plain lines left as offsets into their text (the read-ahead worker sends them so). */
export async function* csvReads(source: Source, layout: CsvLayout): AsyncGenerator<CsvRead> {
  const { file } = source;
  const plain = new PlainLines(layout.delimiter, layout.headerLine);
  const chunks = textChunks(source)[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = await chunks.next();
      } catch (err) {
        throw csvInputError(asInputError(err, file), file, plain.inHeader ? layout.headerLine : plain.line);
      }
      const scan = plain.take(next.done ? undefined : next.value);
      if (scan.cells.length > 0) yield { kind: 'plain', scan };
      if (plain.rest !== undefined) break;
      if (next.done) return;
    }
    let parsed: AsyncGenerator<CsvBatch>;
    if (plain.inHeader) {
      await chunks.return?.(undefined);
      parsed = csvParseBatches(source, layout);
    } else {
      // The rest starts at a line of its own, where csv-parse stood at the start of a record: it reads it
      // with the line break it found at the first line, from this line on.
      const rest = restOf(plain.rest ?? '', chunks);
      const options = { delimiter: layout.delimiter, bom: false, record_delimiter: plain.recordDelimiter ?? '\n' };
      parsed = parsedBatches(Readable.from(rest, { objectMode: false }), file, options, { line: plain.line, header: false });
    }
    for await (const batch of parsed) yield { kind: 'parsed', batch };
  } finally {
    await chunks.return?.(undefined);
  }
}

/** The data rows after the header as csv-parse alone reads them (csvBatches, every line through the parse). */
export function csvParseBatches(source: Source, layout: CsvLayout): AsyncGenerator<CsvBatch> {
  return parsedBatches(csvInput(source), source.file, { delimiter: layout.delimiter, bom: true, from_line: layout.headerLine }, { line: layout.headerLine, header: true });
}

/** The text from the first line that is not plain, then the chunks after it. */
async function* restOf(first: string, chunks: AsyncIterator<string>): AsyncGenerator<string> {
  try {
    if (first !== '') yield first;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  } finally {
    await chunks.return?.(undefined);
  }
}

/**
 * csv-parse's rows of `input` (relaxed quotes, ragged rows, empty lines counted), the first record
 * skipped when it is the header; `start.line` is the file line of its first record.
 */
async function* parsedBatches(
  input: Readable,
  file: string,
  options: { delimiter: Delimiter; bom: boolean; from_line?: number; record_delimiter?: string },
  start: { line: number; header: boolean },
): AsyncGenerator<CsvBatch> {
  const parser = parse({
    ...options,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: false, // an empty line is a record [''] here, so every line is counted
    max_record_size: MAX_RECORD_CHARS,
  });
  pipeline(input, parser, () => {
    // errors surface through the iteration below
  });
  let next = start.line;
  let headerSeen = !start.header;
  try {
    for await (const records of batches<string[]>(parser)) {
      const rows: string[][] = [];
      const lines: number[] = [];
      for (let r = 0; r < records.length; r++) {
        const cells = records[r]!;
        const line = next;
        next += 1 + lineBreaks(cells);
        if (!headerSeen) {
          headerSeen = true; // already read by readHeader
        } else if (!isBlank(cells)) {
          rows.push(cells);
          lines.push(line);
        }
      }
      if (rows.length > 0) yield { rows, lines };
    }
  } catch (err) {
    // Every record before the error has been counted, so `next` is where the broken one starts;
    // csv-parse's own line count starts at the line its input starts on.
    if (err instanceof CsvError && typeof err.lines === 'number' && !start.header) err.lines += start.line - 1;
    throw csvInputError(asInputError(err, file), file, headerSeen ? next : start.line);
  }
}

/** Line breaks inside a record's cells: the record spans one line more for each. */
export function lineBreaks(cells: string[]): number {
  let n = 0;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    let at = cell.indexOf('\n');
    while (at >= 0) {
      n++;
      at = cell.indexOf('\n', at + 1);
    }
  }
  return n;
}

/** A csv-parse error as one sentence for the user; other errors unchanged. `start` is the line the broken row starts on. */
export function csvInputError(err: unknown, file: string, start: number): unknown {
  if (!(err instanceof CsvError)) return err;
  const where = typeof err.lines === 'number' ? err.lines : start;
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new InputError(`${file} line ${start}: a quote opens here and never closes; close it or remove it`, file, start, { cause: err });
    case 'CSV_MAX_RECORD_SIZE':
      return new InputError(
        `${file} line ${start}: this row runs past ${MAX_RECORD_CHARS.toLocaleString('en')} characters, most likely because a quote opens here and never closes; close it or remove it`,
        file,
        start,
        { cause: err },
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE': {
      const opened = start < where ? ` (its quote opens on line ${start})` : '';
      return new InputError(
        `${file} line ${where}: a quoted cell${opened} has more text after its closing quote; quote the whole cell and double any quote inside it ("")`,
        file,
        where,
        { cause: err },
      );
    }
    default:
      return new InputError(
        `${file} line ${where}: this is not valid CSV (${err.message}); fix the row or export the file again`,
        file,
        where,
        { cause: err },
      );
  }
}
