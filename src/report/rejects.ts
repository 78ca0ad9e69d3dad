import type { Reject } from '../contacts/types.js';
import { csvChunks } from './csv-chunks.js';
import { safeCell } from './csv-safe.js';
import { writeFileAtomic } from './write-atomic.js';

/** The columns rejects.csv starts with; the original columns of the rows follow. */
export const REJECT_COLUMNS = ['file', 'line', 'raw_phone', 'reason', 'detail'] as const;

/**
 * Writes rejects.csv: `file,line,raw_phone,reason,detail`, then the union of the rows' original
 * columns in first-seen order. An original column named like one of ours is headed
 * `<name> (original)`. Every cell, headers included, goes through safeCell.
 * The rejects are collected first (the union of headers must be known before the first line);
 * always writes the file, with only its header when there is no reject.
 */
export async function writeRejects(
  file: string,
  rejects: Iterable<Reject> | AsyncIterable<Reject>,
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
  await writeFileAtomic(file, csvChunks(safeRows(rows())));
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

function* safeRows(rows: Iterable<string[]>): Generator<string[]> {
  for (const row of rows) yield row.map(safeCell);
}
