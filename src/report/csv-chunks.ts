/** Text is handed on in pieces of about this many characters: big writes, never the whole file in memory (a stream holds up to 16 of them). */
const CHUNK_CHARS = 1 << 18;

/**
 * One CSV record as csv-stringify writes it with its defaults (and `delimiter`): a cell holding the
 * delimiter, a quote, a line feed or a carriage return is quoted, its quotes doubled; an empty cell is
 * empty; the record ends with `\n`.
 */
export function csvRecord(cells: readonly string[], delimiter: string): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) line += delimiter;
    line += csvCell(cells[i] ?? '', delimiter);
  }
  return `${line}\n`;
}

/** One cell as csvRecord writes it: quoted, its quotes doubled, when it holds the delimiter, a quote, a line feed or a carriage return. */
export function csvCell(cell: string, delimiter: string): string {
  return needsQuotes(cell, delimiter) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

function needsQuotes(cell: string, delimiter: string): boolean {
  return cell.includes(delimiter) || cell.includes('"') || cell.includes('\n') || cell.includes('\r');
}

/** CSV text for rows of cells, in pieces of about 256 KB (never the whole file in memory); `bom` starts it with U+FEFF. A synchronous source is read without a promise per row. */
export async function* csvChunks(
  rows: Iterable<string[]> | AsyncIterable<string[]>,
  options: { delimiter?: string; bom?: boolean } = {},
): AsyncGenerator<string> {
  if (Symbol.iterator in rows) {
    yield* csvChunksSync(rows, options);
    return;
  }
  const delimiter = options.delimiter ?? ',';
  let text = options.bom ? '\uFEFF' : '';
  for await (const row of rows) {
    text += csvRecord(row, delimiter);
    if (text.length >= CHUNK_CHARS) {
      yield text;
      text = '';
    }
  }
  if (text.length > 0) yield text;
}

/** The same from a synchronous source. */
export function* csvChunksSync(rows: Iterable<string[]>, options: { delimiter?: string; bom?: boolean } = {}): Generator<string> {
  const delimiter = options.delimiter ?? ',';
  let text = options.bom ? '\uFEFF' : '';
  for (const row of rows) {
    text += csvRecord(row, delimiter);
    if (text.length >= CHUNK_CHARS) {
      yield text;
      text = '';
    }
  }
  if (text.length > 0) yield text;
}
