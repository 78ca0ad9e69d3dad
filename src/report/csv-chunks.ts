/**
 * CSV text for rows of cells, written by csv-stringify (its defaults: a cell holding the delimiter, a
 * quote, a line feed or a carriage return quoted, its quotes doubled; `\n` after each record), handed
 * on in pieces of about 256 KB: big writes, never the whole file in memory. Rows are given to the
 * library a thousand at a time, so a synchronous source costs no promise per row.
 */
import { stringify } from 'csv-stringify/sync';

const CHUNK_CHARS = 1 << 18;
const BATCH_ROWS = 1_000;

export interface CsvOptions {
  delimiter?: string;
  /** Start the text with U+FEFF (the spreadsheet form). */
  bom?: boolean;
}

/** The CSV text of `rows`, in pieces. */
export async function* csvChunks(rows: Iterable<string[]> | AsyncIterable<string[]>, options: CsvOptions = {}): AsyncGenerator<string> {
  if (Symbol.iterator in rows) {
    yield* csvChunksSync(rows, options);
    return;
  }
  const pieces = new Pieces(options);
  for await (const row of rows) {
    const text = pieces.add(row);
    if (text !== undefined) yield text;
  }
  const rest = pieces.end();
  if (rest !== undefined) yield rest;
}

/** The same from a synchronous source. */
export function* csvChunksSync(rows: Iterable<string[]>, options: CsvOptions = {}): Generator<string> {
  const pieces = new Pieces(options);
  for (const row of rows) {
    const text = pieces.add(row);
    if (text !== undefined) yield text;
  }
  const rest = pieces.end();
  if (rest !== undefined) yield rest;
}

/** Rows gathered into batches for the library, and its text into pieces. */
class Pieces {
  private readonly delimiter: string;
  private text: string;
  private batch: string[][] = [];

  constructor(options: CsvOptions) {
    this.delimiter = options.delimiter ?? ',';
    this.text = options.bom ? '\uFEFF' : '';
  }

  /** Takes a row; returns a piece when one is full. */
  add(row: string[]): string | undefined {
    this.batch.push(row);
    if (this.batch.length < BATCH_ROWS) return undefined;
    this.flush();
    if (this.text.length < CHUNK_CHARS) return undefined;
    const piece = this.text;
    this.text = '';
    return piece;
  }

  /** The last piece, if any text is left. */
  end(): string | undefined {
    this.flush();
    return this.text.length > 0 ? this.text : undefined;
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    this.text += stringify(this.batch, { delimiter: this.delimiter });
    this.batch = [];
  }
}
