import { stringify } from 'csv-stringify/sync';

const ROWS_PER_CHUNK = 500;

/** CSV text for rows of cells, a few hundred rows at a time (never the whole file in memory); `bom` starts it with U+FEFF. */
export async function* csvChunks(
  rows: Iterable<string[]> | AsyncIterable<string[]>,
  options: { delimiter?: string; bom?: boolean } = {},
): AsyncGenerator<string> {
  const delimiter = options.delimiter ?? ',';
  if (options.bom) yield '\uFEFF';
  let batch: string[][] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length === ROWS_PER_CHUNK) {
      yield stringify(batch, { delimiter });
      batch = [];
    }
  }
  if (batch.length > 0) yield stringify(batch, { delimiter });
}
