/**
 * What crosses between the CSV read-ahead worker (csv-read-worker.ts) and the loader's thread
 * (csv-read-ahead.ts): the messages, and a batch of rows packed as one string of every cell with the
 * lengths that cut it back. A million rows cross as a few hundred strings and typed arrays, which the
 * loader's thread takes in at a fraction of what a copy of each row's array of cells costs it.
 */
import type { CsvLayout } from './csv.js';
import type { CsvBatch, PlainScan } from './csv-plain.js';
import type { Delimiter, Format } from './detect.js';

/** What the worker is started with. */
export interface ReadAheadData {
  /** The list's files in the loader's order (each path once). */
  files: string[];
  format: Format | undefined;
  delimiter: Delimiter | undefined;
  /** Two Int32 cells: the batches the loader took so far, and a stop flag the loader sets (csv-read-ahead.ts). */
  window: SharedArrayBuffer;
}

/** Cells of `window`. */
export const TAKEN = 0;
export const STOP = 1;

/**
 * A batch of rows packed: cell k of the batch is `text` from `bounds[2k]` to `bounds[2k + 1]`;
 * `cells[r]` cells in row r, which starts on `lines[r]`. Plain lines cross as the text they were read
 * from (the offsets skip the delimiters); csv-parse's rows as their cells joined.
 */
export interface PackedRows {
  text: string;
  bounds: Uint32Array;
  cells: Uint32Array;
  lines: Int32Array;
}

/** What the worker says, file after file in the loader's order. */
export type FromWorker =
  /** It reads this CSV or TSV file, whose header it read as `layout`; its rows follow, then `end` or `error`. */
  | { kind: 'file'; file: string; layout: CsvLayout }
  /** It does not read this file (not CSV or TSV, or it could not open it): the loader reads it itself. */
  | { kind: 'skip'; file: string }
  | ({ kind: 'rows' } & PackedRows)
  /** The file's rows are all sent. */
  | { kind: 'end'; file: string }
  /** The read stopped at a problem of the file (the loader's InputError, as a sentence): nothing follows. */
  | { kind: 'error'; file: string; message: string; line?: number }
  /** The worker itself failed (not the file): nothing follows, the loader reads on by itself. */
  | { kind: 'failed'; message: string };

/** A batch of cells packed for the crossing (their text joined). */
export function packRows(batch: CsvBatch): PackedRows {
  const { rows } = batch;
  let total = 0;
  for (let r = 0; r < rows.length; r++) total += rows[r]!.length;
  const bounds = new Uint32Array(2 * total);
  const cells = new Uint32Array(rows.length);
  const parts: string[] = new Array<string>(total);
  let k = 0;
  let at = 0;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    cells[r] = row.length;
    for (let c = 0; c < row.length; c++, k++) {
      const cell = row[c]!;
      bounds[2 * k] = at;
      at += cell.length;
      bounds[2 * k + 1] = at;
      parts[k] = cell;
    }
  }
  return { text: parts.join(''), bounds, cells, lines: Int32Array.from(batch.lines) };
}

/** Plain lines packed for the crossing: their text as read, and the offsets. */
export function packScan(scan: PlainScan): PackedRows {
  return { text: scan.text, bounds: Uint32Array.from(scan.bounds), cells: Uint32Array.from(scan.cells), lines: Int32Array.from(scan.lines) };
}

/** The batch a packed one was made of: the same cells, row by row, with the same lines. */
export function unpackRows(packed: PackedRows): CsvBatch {
  const { text, bounds, cells } = packed;
  const rows: string[][] = new Array<string[]>(cells.length);
  const lines: number[] = new Array<number>(cells.length);
  let k = 0;
  for (let r = 0; r < cells.length; r++) {
    const n = cells[r]!;
    const row: string[] = new Array<string>(n);
    for (let c = 0; c < n; c++, k += 2) row[c] = text.slice(bounds[k], bounds[k + 1]);
    rows[r] = row;
    lines[r] = packed.lines[r]!;
  }
  return { rows, lines };
}

/** The buffers of a packed batch, moved (not copied) to the other thread. */
export function movedBuffers(packed: PackedRows): ArrayBuffer[] {
  return [packed.bounds.buffer as ArrayBuffer, packed.cells.buffer as ArrayBuffer, packed.lines.buffer as ArrayBuffer];
}
