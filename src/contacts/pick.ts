/**
 * Some rows of a CSV or TSV list, found by the line each starts on, without reading the rows before
 * them through the parser: a run that goes on reads only the rows a listing says are left. The
 * rows come out as the loader gives them (the same checks, deduped together in list order).
 */
import { open, readFile } from 'node:fs/promises';
import { parse as parseSync } from 'csv-parse/sync';
import { type CsvLayout, MAX_RECORD_CHARS, isBlank, lineBreaks } from './csv.js';
import { CountryCells } from './country.js';
import { Dedupe } from './dedupe.js';
import type { LoadItem, LoadWarning } from './items.js';
import { LanguageCells } from './language.js';
import { type PreparedFile, prepareFile } from './load.js';
import { uniquePaths } from './source.js';
import type { Mapping } from './columns.js';
import { type LoaderOptions, resolveOptions } from './options.js';
import { type RowContext, rowItem } from './row.js';
import { ZoneCells } from './zone.js';

/** A row of the list: its file (as the list names it) and the 1-based line it starts on. */
export interface RowAt {
  file: string;
  line: number;
}

/**
 * Every row of a file from a byte on: the rows appended to a file read before (`fromLine` is the
 * line that byte starts; the bytes before it end with a line break), or a file new to the list
 * (`fromByte` 0: its header is read and skipped as the loader does).
 */
export interface TailAt {
  file: string;
  fromByte: number;
  fromLine: number;
}

/**
 * Rows read before and not read again (a listing's columns): a row read now with one of their phones
 * is its duplicate, as in a whole read. `phones` holds each phone's digits (`+5511…` → 5511…; 0: none),
 * `fileOf` an index into `files` (0xffff: none), `lines` the line its row starts on.
 */
export interface KnownRows {
  count: number;
  phones: Float64Array;
  fileOf: Uint16Array;
  lines: Int32Array;
  files: readonly string[];
}

/**
 * The rows' items in list order (a row's warnings before it), or why they cannot be picked so (the
 * caller reads the whole list instead): a file that is not UTF-8 CSV or TSV, a line past its end,
 * a row that may run over several lines (an odd number of quotes on its line).
 */
export type Picked = { ok: true; items: LoadItem[] } | { ok: false; why: string };

const NEWLINE = 0x0a;
const QUOTE = 0x22;

export async function pickRows(files: string[], options: LoaderOptions, rows: readonly RowAt[], more: { tails?: readonly TailAt[]; known?: KnownRows } = {}): Promise<Picked> {
  const settings = resolveOptions(options);
  const unique = uniquePaths(files);
  const byFile = new Map<string, number[]>();
  for (const row of rows) {
    const lines = byFile.get(row.file) ?? [];
    lines.push(row.line);
    byFile.set(row.file, lines);
  }
  for (const file of byFile.keys()) if (!unique.includes(file)) return { ok: false, why: `${file} is not a file of the list` };
  const tails = new Map((more.tails ?? []).map((t) => [t.file, t]));
  for (const file of tails.keys()) if (!unique.includes(file)) return { ok: false, why: `${file} is not a file of the list` };
  const prepared: Array<PreparedFile & { layout: CsvLayout; mapping: Mapping }> = [];
  for (const file of unique) {
    // Every file is opened and its header checked, as the loader does, picked rows or not.
    const { source, layout, mapping } = await prepareFile(file, settings);
    if (layout === undefined || mapping === undefined) return { ok: false, why: `${file} is not CSV or TSV` };
    if (source.encoding !== 'utf-8') return { ok: false, why: `${file} is not UTF-8` };
    prepared.push({ source, layout, mapping });
  }
  const tailRead = new Map<string, { rows: string[][]; lines: number[] }>();
  for (const [i, file] of unique.entries()) {
    const tail = tails.get(file);
    if (tail === undefined) continue;
    if ((byFile.get(file) ?? []).some((line) => line >= tail.fromLine)) return { ok: false, why: `${file}: a picked line is in its new rows` };
    const read = await tailRows(tail, prepared[i]!.layout);
    if ('why' in read) return { ok: false, why: read.why };
    tailRead.set(file, read);
  }
  const dedupe = new Dedupe(unique);
  const countries = new CountryCells();
  const languages = new LanguageCells();
  const zones = new ZoneCells();
  const warnings: LoadWarning[] = [];
  const contextOf = (i: number, d: Dedupe): RowContext => ({ file: prepared[i]!.source.file, fileIndex: i, settings, dedupe: d, countries, languages, zones });
  // The known rows that a new row's phone is found in stand where they were read: those alone are seeded.
  if (more.known && tailRead.size > 0) {
    const numbers = new Set<number>();
    const probe = new Dedupe(unique);
    for (const [i, file] of unique.entries()) {
      const read = tailRead.get(file);
      if (read === undefined) continue;
      for (let r = 0; r < read.rows.length; r++) {
        const item = rowItem(contextOf(i, probe), prepared[i]!.mapping, read.lines[r]!, read.rows[r]!, []);
        if (item.kind === 'contact') numbers.add(Number(item.contact.phone.slice(1)));
      }
    }
    seedKnown(dedupe, unique, more.known, numbers);
  }
  const items: LoadItem[] = [];
  for (let i = 0; i < unique.length; i++) {
    const file = unique[i]!;
    const { layout, mapping } = prepared[i]!;
    const ctx = contextOf(i, dedupe);
    const lines = [...new Set(byFile.get(file) ?? [])].sort((a, b) => a - b);
    if (lines.length > 0) {
      const text = await linesOf(file, lines);
      if (typeof text !== 'string') return text;
      const records = parseSync(text, { delimiter: layout.delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false, max_record_size: MAX_RECORD_CHARS }) as string[][];
      if (records.length !== lines.length) return { ok: false, why: `${file}: the picked lines do not read as one row each` };
      for (let r = 0; r < records.length; r++) {
        const cells = records[r]!;
        if (isBlank(cells)) return { ok: false, why: `${file} line ${lines[r]} is blank` };
        const item = rowItem(ctx, mapping, lines[r]!, cells, warnings);
        items.push(...warnings, item);
        warnings.length = 0;
      }
    }
    const read = tailRead.get(file);
    if (read === undefined) continue;
    for (let r = 0; r < read.rows.length; r++) {
      const item = rowItem(ctx, mapping, read.lines[r]!, read.rows[r]!, warnings);
      items.push(...warnings, item);
      warnings.length = 0;
    }
  }
  return { ok: true, items };
}

/** The known rows with one of `numbers` (phones' digits), each at its own row, in a dedupe of the list's files: one pass, no table of every known phone. */
function seedKnown(dedupe: Dedupe, unique: readonly string[], known: KnownRows, numbers: ReadonlySet<number>): void {
  if (numbers.size === 0) return;
  const index = known.files.map((file) => unique.indexOf(file));
  for (let k = 0; k < known.count; k++) {
    const digits = known.phones[k]!;
    if (!numbers.has(digits)) continue;
    const at = index[known.fileOf[k]!] ?? -1;
    if (at >= 0) dedupe.seed(digits, at, known.lines[k]!);
  }
}

/** The data rows of a tail, each with the line it starts on (blank ones left out, as the loader does); or why they cannot be read so. */
async function tailRows(tail: TailAt, layout: CsvLayout): Promise<{ rows: string[][]; lines: number[] } | { why: string }> {
  const handle = await open(tail.file, 'r');
  let bytes: Buffer;
  try {
    const { size } = await handle.stat();
    if (size < tail.fromByte) return { why: `${tail.file} is shorter than when it was read` };
    bytes = Buffer.allocUnsafe(size - tail.fromByte);
    for (let done = 0; done < bytes.length; ) {
      const { bytesRead } = await handle.read(bytes, done, bytes.length - done, tail.fromByte + done);
      if (bytesRead === 0) return { why: `${tail.file} ended while it was read` };
      done += bytesRead;
    }
  } finally {
    await handle.close();
  }
  const whole = tail.fromByte === 0;
  let records: string[][];
  try {
    records = parseSync(bytes, {
      delimiter: layout.delimiter,
      bom: whole,
      ...(whole && { from_line: layout.headerLine }),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      max_record_size: MAX_RECORD_CHARS,
    }) as string[][];
  } catch {
    return { why: `${tail.file}: its new rows do not read as CSV` };
  }
  const rows: string[][] = [];
  const lines: number[] = [];
  let next = whole ? layout.headerLine : tail.fromLine;
  for (let r = 0; r < records.length; r++) {
    const cells = records[r]!;
    const line = next;
    next += 1 + lineBreaks(cells);
    // A new file's first record is its header (already read by prepareFile).
    if ((whole && r === 0) || isBlank(cells)) continue;
    rows.push(cells);
    lines.push(line);
  }
  return { rows, lines };
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
