/**
 * CSV cells written by hand, for the million-row path only (column-csv.ts writes report.csv from the
 * state's columns straight into bytes, and csv-stringify there costs three to four times the text's
 * own writing: `npm run bench`, the report row). The same text as csv-stringify with its defaults and
 * `delimiter`, which every other CSV of the tool is written with (csv-chunks.ts); a test holds the two
 * to the same output.
 */

/** One record: each cell as `csvCell` writes it, then `\n`. */
export function csvRecord(cells: readonly string[], delimiter: string): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) line += delimiter;
    line += csvCell(cells[i] ?? '', delimiter);
  }
  return `${line}\n`;
}

/** One cell: quoted, its quotes doubled, when it holds the delimiter, a quote, a line feed or a carriage return; else as it is. */
export function csvCell(cell: string, delimiter: string): string {
  return cell.includes(delimiter) || cell.includes('"') || cell.includes('\n') || cell.includes('\r') ? `"${cell.replaceAll('"', '""')}"` : cell;
}
