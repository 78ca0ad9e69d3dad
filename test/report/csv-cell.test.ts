/** The hand-written CSV of the million-row path (column-csv.ts) writes what csv-stringify writes, which every other CSV of the tool uses. */
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvRecord } from '../../src/report/csv-cell.js';
import { csvChunksSync } from '../../src/report/csv-chunks.js';

const TRICKY = ['', 'plain', 'a,b', 'a;b', 'say "hi"', '"', 'line\nbreak', 'carriage\rreturn', 'crlf\r\n', ' spaced ', "'=1+1", 'olá, João', '+5511987654321', '\t', ',', ';;', '""""'];

/** A deterministic mix of the tricky cells, so each record differs. */
function records(n: number, width: number): string[][] {
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
  return Array.from({ length: n }, () => Array.from({ length: width }, () => TRICKY[next() % TRICKY.length] ?? ''));
}

describe('CSV written by hand for the report\'s million rows', () => {
  it('gives csv-stringify\'s text for every record, with either delimiter', () => {
    for (const delimiter of [',', ';']) {
      for (const cells of [...TRICKY.map((c) => [c]), ...records(500, 6)]) expect(csvRecord(cells, delimiter)).toBe(stringify([cells], { delimiter }));
    }
  });

  it('is the text csvChunksSync gives through the library, pieces joined, the spreadsheet form\'s BOM first', () => {
    const rows = records(2_500, 5);
    expect([...csvChunksSync(rows, { delimiter: ';', bom: true })].join('')).toBe(`\uFEFF${rows.map((r) => csvRecord(r, ';')).join('')}`);
    expect([...csvChunksSync([])].join('')).toBe('');
  });
});
