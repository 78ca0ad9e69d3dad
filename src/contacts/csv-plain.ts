/**
 * The plain lines of a CSV file, split by hand: a line with no quote and no stray carriage return is
 * the cells between its delimiters, as csv-parse reads it (with csvBatches' options: quotes relaxed,
 * ragged rows, empty lines kept as one empty cell). Most lists are plain throughout, and a million of
 * their lines split so in a fraction of the parse's time; from the first line that is not plain,
 * csvBatches hands the rest of the file to csv-parse (a test holds the two reads equal on files of
 * every shape).
 */
import type { Delimiter } from './detect.js';

/** Data rows in the order of the file: `lines[i]` is the 1-based line where `rows[i]` starts. */
export interface CsvBatch {
  rows: string[][];
  lines: number[];
}

/** Longer lines go to csv-parse, which enforces its limit on a record's size (no plain line reaches it). */
const PLAIN_LINE_CHARS = 250_000;

/** What csv-parse found the line break to be: the first one of the file, outside quotes. */
export type RecordDelimiter = '\n' | '\r\n';

/**
 * Plain lines read from a piece of the file: each row's cells as offsets into `text` (cell k of the
 * rows runs from `bounds[2k]` to `bounds[2k + 1]`), `cells[r]` cells in row r, which is on `lines[r]`.
 * No cell string is made until a reader asks (`rowsOf`): the read-ahead worker sends the text and the
 * offsets as they are.
 */
export interface PlainScan {
  text: string;
  bounds: number[];
  cells: number[];
  lines: number[];
}

const QUOTE = 0x22;
const CR = 0x0d;

export class PlainLines {
  /** The file line of the next row (1-based). */
  line: number;
  /** The line break of the file, once its first line was read. */
  recordDelimiter: RecordDelimiter | undefined;
  /**
   * Set at the first line that is not plain: the text from its start on (the rest of the file follows
   * in the chunks not yet taken). `inHeader` tells that it was met before the first row.
   */
  rest: string | undefined;
  /** Lines before the first row (the header and any line above it) still to pass. */
  private skip: number;
  private carry = '';
  private readonly delimiter: number;

  constructor(delimiter: Delimiter, headerLine: number) {
    this.delimiter = delimiter.charCodeAt(0);
    this.skip = headerLine;
    this.line = headerLine + 1;
  }

  /** Whether the read stopped before its first row (csv-parse then reads the file from its start). */
  get inHeader(): boolean {
    return this.skip > 0;
  }

  /**
   * The rows of the plain lines `text` completes (undefined: the file ended); stops at the first line
   * that is not plain, setting `rest`. Blank rows are left out, as csvBatches leaves them.
   */
  take(text: string | undefined): PlainScan {
    const buffer = this.carry === '' ? (text ?? '') : text === undefined ? this.carry : this.carry + text;
    const scan: PlainScan = { text: buffer, bounds: [], cells: [], lines: [] };
    this.carry = '';
    let at = 0;
    for (;;) {
      const end = buffer.indexOf('\n', at);
      if (end < 0) break;
      if (!this.one(buffer, at, end, true, scan)) {
        this.rest = buffer.slice(at);
        return scan;
      }
      at = end + 1;
    }
    if (text !== undefined) this.carry = buffer.slice(at);
    else if (at < buffer.length && !this.one(buffer, at, buffer.length, false, scan)) this.rest = buffer.slice(at);
    return scan;
  }

  /** Reads the line from `start` to `end` (its `\n` there when `broken`); false when it is not plain. */
  private one(buffer: string, start: number, end: number, broken: boolean, scan: PlainScan): boolean {
    let stop = end;
    if (broken) {
      const crlf = end > start && buffer.charCodeAt(end - 1) === CR;
      // The first line break of the file is the record delimiter (a lone \r, or \r\n then \n, is not plain).
      this.recordDelimiter ??= crlf ? '\r\n' : '\n';
      if (crlf !== (this.recordDelimiter === '\r\n')) return false;
      if (crlf) stop -= 1;
    }
    if (stop - start > PLAIN_LINE_CHARS) return false;
    const { bounds } = scan;
    const from = bounds.length;
    let cellStart = start;
    for (let i = start; i < stop; i++) {
      const unit = buffer.charCodeAt(i);
      if (unit === QUOTE || unit === CR) {
        bounds.length = from;
        return false;
      }
      if (unit === this.delimiter) {
        bounds.push(cellStart, i);
        cellStart = i + 1;
      }
    }
    bounds.push(cellStart, stop);
    if (this.skip > 0) {
      bounds.length = from;
      this.skip -= 1;
      return true;
    }
    if (blankCells(buffer, bounds, from)) bounds.length = from;
    else {
      scan.cells.push((bounds.length - from) / 2);
      scan.lines.push(this.line);
    }
    this.line += 1;
    return true;
  }
}

/** The rows of a scan as cell strings: the same as splitting each line at its delimiters. */
export function rowsOf(scan: PlainScan): CsvBatch {
  const { text, bounds, cells } = scan;
  const rows: string[][] = new Array<string[]>(cells.length);
  let k = 0;
  for (let r = 0; r < cells.length; r++) {
    const n = cells[r]!;
    const row: string[] = new Array<string>(n);
    for (let c = 0; c < n; c++, k += 2) row[c] = text.slice(bounds[k]!, bounds[k + 1]!);
    rows[r] = row;
  }
  return { rows, lines: scan.lines };
}

/** Whether the cells from bound pair `from` on are all empty or blank (isBlank, without making a string of a cell that starts with a visible ASCII character). */
function blankCells(text: string, bounds: number[], from: number): boolean {
  for (let k = from; k < bounds.length; k += 2) {
    const a = bounds[k]!;
    const b = bounds[k + 1]!;
    if (a === b) continue;
    const unit = text.charCodeAt(a);
    if (unit > 0x20 && unit < 0x7f) return false;
    if (text.slice(a, b).trim() !== '') return false;
  }
  return true;
}

/** A row of nothing but empty or blank cells: an empty line, spaces, or ";;;". */
export function isBlank(cells: string[]): boolean {
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    if (cell !== '' && cell.trim() !== '') return false;
  }
  return true;
}
