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

  constructor(
    private readonly delimiter: Delimiter,
    headerLine: number,
  ) {
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
  take(text: string | undefined): CsvBatch {
    const rows: string[][] = [];
    const lines: number[] = [];
    const buffer = this.carry === '' ? (text ?? '') : text === undefined ? this.carry : this.carry + text;
    this.carry = '';
    let at = 0;
    for (;;) {
      const end = buffer.indexOf('\n', at);
      if (end < 0) break;
      if (!this.one(buffer, at, end, true, rows, lines)) {
        this.rest = buffer.slice(at);
        return { rows, lines };
      }
      at = end + 1;
    }
    if (text !== undefined) this.carry = buffer.slice(at);
    else if (at < buffer.length && !this.one(buffer, at, buffer.length, false, rows, lines)) this.rest = buffer.slice(at);
    return { rows, lines };
  }

  /** Reads the line from `start` to `end` (its `\n` there when `broken`); false when it is not plain. */
  private one(buffer: string, start: number, end: number, broken: boolean, rows: string[][], lines: number[]): boolean {
    let stop = end;
    if (broken) {
      const crlf = end > start && buffer.charCodeAt(end - 1) === 0x0d;
      // The first line break of the file is the record delimiter (a lone \r, or \r\n then \n, is not plain).
      this.recordDelimiter ??= crlf ? '\r\n' : '\n';
      if (crlf !== (this.recordDelimiter === '\r\n')) return false;
      if (crlf) stop -= 1;
    }
    if (stop - start > PLAIN_LINE_CHARS) return false;
    const text = buffer.slice(start, stop);
    if (text.includes('"') || text.includes('\r')) return false;
    if (this.skip > 0) {
      this.skip -= 1;
      return true;
    }
    const cells = text.split(this.delimiter);
    if (!isBlank(cells)) {
      rows.push(cells);
      lines.push(this.line);
    }
    this.line += 1;
    return true;
  }
}

/** A row of nothing but empty or blank cells: an empty line, spaces, or ";;;". */
export function isBlank(cells: string[]): boolean {
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    if (cell !== '' && cell.trim() !== '') return false;
  }
  return true;
}
