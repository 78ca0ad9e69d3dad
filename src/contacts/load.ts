/** The loader: every file in order, each row through the same checks, deduped together. */
import { type Mapping, checkColumns, checkNamedKeys, checkPlaceholderColumns, mapColumns } from './columns.js';
import { type CsvLayout, csvBatches, readHeader } from './csv.js';
import { CountryCells } from './country.js';
import { Dedupe } from './dedupe.js';
import { type LoadCounts, type LoadItem, type LoadWarning, WARNING_EXAMPLES } from './items.js';
import { type JsonEntry, jsonEntries as jsonArrayEntries } from './json.js';
import { LanguageCells } from './language.js';
import { ZoneCells } from './zone.js';
import { ndjsonEntries } from './ndjson.js';
import { type LoaderOptions, type Settings, resolveOptions } from './options.js';
import { entryItem, type ObjectsState, objectsState } from './objects.js';
import { type RowContext, rowItem } from './row.js';
import { type Source, openSource, textChunks, uniquePaths } from './source.js';

/**
 * Streams all files in the given order, deduped together on E.164 (the first row wins).
 * Before the first row, every file is opened and every CSV header checked, so a wrong path
 * or column in the last file stops the load before anything is sent. Iterating throws
 * InputError for fatal input errors; `counts` fills in as the items are read.
 */
export function loadContacts(files: string[], options: LoaderOptions): { items: AsyncIterable<LoadItem>; counts: LoadCounts } {
  const { batches, counts } = loadContactBatches(files, options);
  return { items: flat(batches), counts };
}

/**
 * The same load a batch at a time (the rows of a piece of a CSV file, or one JSON entry): each batch
 * makes its items as they are taken from it (each row read, deduped and counted then, as one at a
 * time), so a reader that takes them without waiting pays no await per row. Take each batch whole
 * before asking for the next.
 */
export function loadContactBatches(files: string[], options: LoaderOptions): { batches: AsyncIterable<Iterable<LoadItem>>; counts: LoadCounts } {
  const counts: LoadCounts = { rows: 0, contacts: 0, rejected: 0, byReason: {}, warnings: 0, warningsByKind: {} };
  return { batches: load(files, options, counts), counts };
}

export interface PreparedFile {
  source: Source;
  /** CSV and TSV only. */
  layout: CsvLayout | undefined;
  mapping: Mapping | undefined;
}

async function* load(files: string[], options: LoaderOptions, counts: LoadCounts): AsyncGenerator<Iterable<LoadItem>> {
  const settings = resolveOptions(options);
  const unique = uniquePaths(files);
  const prepared: PreparedFile[] = [];
  for (const file of unique) prepared.push(await prepareFile(file, settings));

  const dedupe = new Dedupe(unique);
  const countries = new CountryCells();
  const languages = new LanguageCells();
  const zones = new ZoneCells();
  const warnings: LoadWarning[] = [];
  for (let i = 0; i < prepared.length; i++) {
    const { source, layout, mapping } = prepared[i]!;
    const ctx: RowContext = { file: source.file, fileIndex: i, settings, dedupe, countries, languages, zones };
    if (layout !== undefined && mapping !== undefined) {
      for await (const { rows, lines } of settings.readAhead ? settings.readAhead.batches(source, layout) : csvBatches(source, layout)) {
        yield rowItems(ctx, mapping, rows, lines, warnings, counts);
      }
    } else {
      const entries = { read: 0, state: objectsState() };
      for await (const entry of jsonEntries(source)) yield entryItems(ctx, entries, entry, warnings, counts);
      // A column the job named that no entry had: JSON entries may leave out empty keys, so only now.
      if (entries.state.checked) checkNamedKeys(entries.state.seen, settings, source.file);
    }
  }
}

/** A batch of CSV rows as items, each row read when it is taken. */
function* rowItems(ctx: RowContext, mapping: Mapping, rows: string[][], lines: number[], warnings: LoadWarning[], counts: LoadCounts): Generator<LoadItem> {
  for (let r = 0; r < rows.length; r++) {
    const item = rowItem(ctx, mapping, lines[r]!, rows[r]!, warnings);
    if (warnings.length > 0) yield* flush(warnings, counts);
    tally(counts, item);
    yield item;
  }
}

/** A JSON entry as its item (and its warnings); the job's named keys checked once `namedKeysWithin` entries were read. */
function* entryItems(ctx: RowContext, entries: { read: number; state: ObjectsState }, entry: JsonEntry, warnings: LoadWarning[], counts: LoadCounts): Generator<LoadItem> {
  const item = entryItem(ctx, entries.state, entry, warnings);
  entries.read += 1;
  if (entries.read === ctx.settings.namedKeysWithin && entries.state.checked) checkNamedKeys(entries.state.seen, ctx.settings, ctx.file, entries.read);
  if (warnings.length > 0) yield* flush(warnings, counts);
  tally(counts, item);
  yield item;
}

/** Batches as one stream of their items. */
export async function* flat<T>(batches: AsyncIterable<Iterable<T>>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

/** The warnings of a row, before its contact. */
function* flush(warnings: LoadWarning[], counts: LoadCounts): Generator<LoadWarning> {
  for (const warning of warnings) {
    tally(counts, warning);
    yield warning;
  }
  warnings.length = 0;
}

/** A file opened for the loader: its source, and for CSV and TSV its header checked and mapped. */
export async function prepareFile(file: string, settings: Settings): Promise<PreparedFile> {
  const source = await openSource(file, settings.format);
  if (source.format !== 'csv' && source.format !== 'tsv') return { source, layout: undefined, mapping: undefined };
  const layout = readHeader(source, settings.delimiter);
  const mapping = mapColumns(layout.headers, settings);
  checkColumns(mapping, settings, file, layout.headerLine);
  checkPlaceholderColumns(mapping, settings, file, layout.headerLine);
  return { source, layout, mapping };
}

function jsonEntries(source: Source): AsyncGenerator<JsonEntry> {
  const chunks = textChunks(source);
  return source.format === 'json' ? jsonArrayEntries(chunks, source.file) : ndjsonEntries(chunks, source.file);
}

function tally(counts: LoadCounts, item: LoadItem): void {
  switch (item.kind) {
    case 'contact':
      counts.rows++;
      counts.contacts++;
      return;
    case 'reject':
      counts.rows++;
      counts.rejected++;
      counts.byReason[item.reject.reason] = (counts.byReason[item.reject.reason] ?? 0) + 1;
      return;
    case 'warning': {
      counts.warnings++;
      const summary = (counts.warningsByKind[item.warning] ??= { count: 0, examples: [] });
      summary.count++;
      if (summary.examples.length < WARNING_EXAMPLES) summary.examples.push({ file: item.file, line: item.line, message: item.detail });
      return;
    }
    default: {
      const never: never = item;
      throw new Error(`unknown item ${JSON.stringify(never)}`);
    }
  }
}

