/**
 * Some rows of a CSV or TSV list, found by the line each starts on, without reading the rows before
 * them through the parser: a run that goes on reads only the rows a listing says are left. The
 * rows come out as the loader gives them (the same checks, deduped together in list order).
 */
import { readFile } from 'node:fs/promises';
import { parse as parseSync } from 'csv-parse/sync';
import { MAX_RECORD_CHARS, isBlank } from './csv.js';
import { CountryCells } from './country.js';
import { Dedupe } from './dedupe.js';
import type { LoadItem, LoadWarning } from './items.js';
import { LanguageCells } from './language.js';
import { prepareFile, uniquePaths } from './load.js';
import { type LoaderOptions, resolveOptions } from './options.js';
import { type RowContext, rowItem } from './row.js';
import { ZoneCells } from './zone.js';

/** A row of the list: its file (as the list names it) and the 1-based line it starts on. */
export interface RowAt {
  file: string;
  line: number;
}

/**
 * The rows' items in list order (a row's warnings before it), or why they cannot be picked so (the
 * caller reads the whole list instead): a file that is not UTF-8 CSV or TSV, a line past its end,
 * a row that may run over several lines (an odd number of quotes on its line).
 */
export type Picked = { ok: true; items: LoadItem[] } | { ok: false; why: string };

const NEWLINE = 0x0a;
const QUOTE = 0x22;

export async function pickRows(files: string[], options: LoaderOptions, rows: readonly RowAt[]): Promise<Picked> {
  const settings = resolveOptions(options);
  const unique = uniquePaths(files);
  const byFile = new Map<string, number[]>();
  for (const row of rows) {
    const lines = byFile.get(row.file) ?? [];
    lines.push(row.line);
    byFile.set(row.file, lines);
  }
  for (const file of byFile.keys()) if (!unique.includes(file)) return { ok: false, why: `${file} is not a file of the list` };
  const dedupe = new Dedupe(unique);
  const countries = new CountryCells();
  const languages = new LanguageCells();
  const zones = new ZoneCells();
  const items: LoadItem[] = [];
  const warnings: LoadWarning[] = [];
  for (let i = 0; i < unique.length; i++) {
    const file = unique[i]!;
    // Every file is opened and its header checked, as the loader does, picked rows or not.
    const { source, layout, mapping } = await prepareFile(file, settings);
    if (layout === undefined || mapping === undefined) return { ok: false, why: `${file} is not CSV or TSV` };
    if (source.encoding !== 'utf-8') return { ok: false, why: `${file} is not UTF-8` };
    const lines = [...new Set(byFile.get(file) ?? [])].sort((a, b) => a - b);
    if (lines.length === 0) continue;
    const text = await linesOf(file, lines);
    if (typeof text !== 'string') return text;
    const records = parseSync(text, { delimiter: layout.delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, max_record_size: MAX_RECORD_CHARS }) as string[][];
    if (records.length !== lines.length) return { ok: false, why: `${file}: the picked lines do not read as one row each` };
    const ctx: RowContext = { file: source.file, fileIndex: i, settings, dedupe, countries, languages, zones };
    for (let r = 0; r < records.length; r++) {
      const cells = records[r]!;
      if (isBlank(cells)) return { ok: false, why: `${file} line ${lines[r]} is blank` };
      const item = rowItem(ctx, mapping, lines[r]!, cells, warnings);
      items.push(...warnings, item);
      warnings.length = 0;
    }
  }
  return { ok: true, items };
}

/** The text of the physical lines `lines` (ascending) of `file`, each ending in a line break; or why not. */
async function linesOf(file: string, lines: readonly number[]): Promise<string | { ok: false; why: string }> {
  const data = await readFile(file);
  const parts: Buffer[] = [];
  let line = 1;
  let at = 0;
  for (const wanted of lines) {
    while (line < wanted) {
      const next = data.indexOf(NEWLINE, at);
      if (next === -1) return { ok: false, why: `${file} has no line ${wanted}` };
      at = next + 1;
      line += 1;
    }
    const end = data.indexOf(NEWLINE, at);
    const part = data.subarray(at, end === -1 ? data.length : end + 1);
    let quotes = 0;
    for (let k = part.indexOf(QUOTE); k !== -1; k = part.indexOf(QUOTE, k + 1)) quotes += 1;
    if (quotes % 2 !== 0) return { ok: false, why: `${file} line ${wanted} may run over several lines` };
    parts.push(part);
    if (end === -1) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts).toString('utf8');
}
